import { createFileRoute } from "@tanstack/react-router";
import { useAuthState } from "#web/features/auth/use-auth";
import { MyFeeds } from "#web/features/profile/components/MyFeeds";

export const Route = createFileRoute("/profile/my-feeds")({
  component: MyFeedsTab,
});

function MyFeedsTab() {
  const { accountId } = useAuthState();
  return accountId ? <MyFeeds accountId={accountId} /> : null;
}
