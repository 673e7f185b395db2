import { createFileRoute, redirect } from "@tanstack/react-router";

export const Route = createFileRoute("/profile/settings/")({
  beforeLoad: () => {
    throw redirect({ to: "/profile/settings/connections", replace: true });
  },
});
