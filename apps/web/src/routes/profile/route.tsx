import { createFileRoute } from "@tanstack/react-router";
import { ProfileLayout } from "#web/features/profile/components/ProfileLayout";

export const Route = createFileRoute("/profile")({
  component: ProfileLayout,
});
