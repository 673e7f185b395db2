import { formatWait } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { BellIcon } from "lucide-react";
import { useState } from "react";
import { PageContainer } from "#web/components/layout/PageContainer";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { RelativeTime, useNow } from "#web/components/ui/relative-time";
import { SectionHeader } from "#web/components/ui/section-header";
import { Skeleton } from "#web/components/ui/skeleton";
import { useCurrentUser } from "#web/features/auth/api";
import { cn } from "#web/lib/cn";
import { remindersQueryOptions } from "../api";
import { useMarkRemindersRead } from "../mutations";

/** The signed-in approver's queue reminders: a post waited past its feed's service level. */
export function RemindersPage() {
  const { data: user, status: userStatus } = useCurrentUser();
  const [page, setPage] = useState(0);
  const reminders = useQuery({ ...remindersQueryOptions(page), enabled: Boolean(user) });
  const markRead = useMarkRemindersRead();
  const now = useNow();

  return (
    <PageContainer className="flex max-w-3xl flex-col gap-5">
      <title>Reminders · Curate</title>
      <SectionHeader
        id="reminders-title"
        title="Reminders"
        actions={
          reminders.data?.unreadCount ? (
            <Button
              variant="secondary"
              size="sm"
              loading={markRead.isPending}
              onClick={() => markRead.mutate(undefined)}
            >
              Mark all read
            </Button>
          ) : null
        }
      />
      <p className="text-sm text-muted">
        When a feed you moderate sets a service level and you opt in on its curation tab, you are reminded
        here when a post waits longer.
      </p>
      {userStatus !== "pending" && !user ? (
        <Alert>Sign in to see your reminders.</Alert>
      ) : reminders.status === "error" ? (
        <Alert>Failed to load reminders: {reminders.error.message}</Alert>
      ) : !reminders.data ? (
        <Skeleton className="h-40 w-full" aria-label="Loading reminders" />
      ) : reminders.data.items.length === 0 ? (
        <div className="rounded-md border border-line bg-surface px-6 py-12 text-center text-sm text-muted">
          No reminders yet.
        </div>
      ) : (
        <>
          <ul className="flex flex-col gap-2" data-testid="reminders">
            {reminders.data.items.map((reminder) => (
              <li
                key={reminder.id}
                className={cn(
                  "flex flex-col gap-1 rounded-md border bg-surface px-4 py-3 sm:flex-row sm:items-center sm:gap-4",
                  reminder.readAt ? "border-line" : "border-amber-300",
                )}
              >
                <BellIcon aria-hidden="true" className="hidden size-5 shrink-0 text-amber-600 sm:block" />
                <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                  <p className="text-sm text-ink">
                    <Link
                      to="/feed/$feedId/curation"
                      params={{ feedId: reminder.feedId }}
                      className="font-medium"
                    >
                      #{reminder.feedId}
                    </Link>
                    : a post has waited {formatWait((now - Date.parse(reminder.waitingSince)) / 1000)}
                    {reminder.readAt ? null : <span className="sr-only"> (unread)</span>}
                  </p>
                  <p className="text-xs text-muted">
                    Reminded <RelativeTime date={reminder.createdAt} />
                    {reminder.telegramStatus === "sent" ? " · also sent by Telegram" : null}
                    {reminder.telegramStatus === "failed" ? " · the Telegram copy could not be sent" : null}
                  </p>
                </div>
                <Link
                  to="/submission/$submissionId"
                  params={{ submissionId: reminder.submissionId }}
                  className="text-sm font-medium text-accent underline-offset-4 hover:underline"
                  onClick={() => {
                    if (!reminder.readAt) markRead.mutate([reminder.id]);
                  }}
                >
                  Open the post
                </Link>
              </li>
            ))}
          </ul>
          <div className="flex justify-between">
            <Button variant="secondary" size="sm" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Newer
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={!reminders.data.pagination.hasNextPage}
              onClick={() => setPage(page + 1)}
            >
              Older
            </Button>
          </div>
        </>
      )}
    </PageContainer>
  );
}
