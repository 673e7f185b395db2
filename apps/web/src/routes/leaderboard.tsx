import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "../features/layout/components/PlaceholderPage";
import { leaderboardSearchSchema } from "../features/leaderboard/search";

export const Route = createFileRoute("/leaderboard")({
  validateSearch: leaderboardSearchSchema,
  component: () => (
    <PlaceholderPage title="Leaderboard">The curator leaderboard is on its way.</PlaceholderPage>
  ),
});
