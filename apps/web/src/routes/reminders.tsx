import { createFileRoute } from "@tanstack/react-router";
import { RemindersPage } from "#web/features/queues/components/RemindersPage";

export const Route = createFileRoute("/reminders")({
  component: RemindersPage,
});
