import { createFileRoute, redirect } from "@tanstack/react-router";

export const Route = createFileRoute("/feed/$feedId/")({
  beforeLoad: ({ params }) => {
    throw redirect({ to: "/feed/$feedId/curation", params, replace: true });
  },
});
