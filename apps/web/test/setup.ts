import { configure } from "@testing-library/react";

// `findBy…` and `waitFor` wait for a state; their one-second default would fail a test on a busy machine (the gate
// runs beside a second one), so only the test's own limit stops a wait.
configure({ asyncUtilTimeout: 60_000 });
