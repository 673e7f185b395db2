import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

/**
 * The API files run once on the embedded database and, when `TEST_DATABASE_URL` names a PostgreSQL server, once
 * more on it, side by side in the same run (`api` and `api-postgres`). A worker runs its files one after another in
 * one module graph (`isolate: false`): each file opens its own database and server, so they share only the imported
 * code, which is then loaded once per worker instead of once per file.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * Limits that only stop a test that would otherwise hang. Assertions wait for states, never for durations, and a
 * machine busy with a second gate beside this one is several times slower: these are that generous. They include
 * `expect.poll`, whose own default (one second) would make every poll a race.
 */
const patientLimits = {
  testTimeout: 120_000,
  hookTimeout: 180_000,
  expect: { poll: { timeout: 60_000, interval: 100 } },
};

const apiProject = (name: string, databaseUrl: string): TestProjectInlineConfiguration => ({
  test: {
    name,
    include: ["apps/server/src/**/*.test.ts"],
    isolate: false,
    globalSetup: ["apps/server/test/global-setup.ts"],
    // What the harness and the tests read to choose the driver; empty means the embedded one.
    env: { TEST_DATABASE_URL: databaseUrl },
    ...patientLimits,
  },
});

export default defineConfig({
  test: {
    // Two cores: the journeys wait on browsers and servers much of the time, so a third worker fills the gaps.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "apps/web/src/**/*.test.{ts,tsx}"],
          environment: "node",
          ...patientLimits,
        },
      },
      apiProject("api", ""),
      ...(postgresUrl ? [apiProject("api-postgres", postgresUrl)] : []),
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          globalSetup: ["e2e/global-setup.ts"],
          ...patientLimits,
          testTimeout: 240_000,
        },
      },
    ],
  },
});
