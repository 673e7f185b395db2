import { QUEUE_REMINDER_DAILY_CAP, QUEUE_REMINDER_PERIOD_HOURS } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { BellIcon } from "lucide-react";
import { useId } from "react";
import { toast } from "#web/components/ui/toast";
import { useCurrentUser } from "#web/features/auth/api";
import { reminderSettingsQueryOptions } from "../api";
import { useUpdateReminderSettings } from "../mutations";

/**
 * The signed-in approver's opt-in to this feed's queue reminders: in the app, and also by Telegram once they linked a
 * Telegram account. Shown to the feed's moderators only.
 */
export function ReminderSettings({ feedId }: { feedId: string }) {
  const { data: user } = useCurrentUser();
  const accountId = user?.nearAccountId ?? null;
  const { data: settings } = useQuery(reminderSettingsQueryOptions(feedId, accountId));
  const update = useUpdateReminderSettings(feedId, accountId);
  const inAppId = useId();
  const telegramId = useId();
  if (!settings) return null;
  const save = (subscribed: boolean, telegram: boolean) =>
    update.mutate(
      { subscribed, telegram: subscribed && telegram },
      { onError: (error) => toast.error("Could not save reminders", { description: error.message }) },
    );
  const hours = settings.decideWithinHours;
  return (
    <fieldset className="flex flex-col gap-2 border-t border-line pt-3" data-testid="reminder-settings">
      <legend className="sr-only">Queue reminders</legend>
      <div className="flex items-start gap-2">
        <input
          id={inAppId}
          type="checkbox"
          className="mt-0.5 size-4 accent-accent"
          checked={settings.subscribed}
          disabled={update.isPending}
          onChange={(event) => save(event.target.checked, settings.telegram)}
        />
        <label htmlFor={inAppId} className="text-sm text-ink">
          <BellIcon aria-hidden="true" className="mr-1 inline size-4 text-muted" />
          {hours
            ? `Remind me when a post waits longer than ${hours} h`
            : "Remind me when posts wait too long (once the feed sets a service level)"}
          <span className="block text-xs text-muted">
            In the app, at most once every {QUEUE_REMINDER_PERIOD_HOURS} h per feed and{" "}
            {QUEUE_REMINDER_DAILY_CAP} a day. Never as a public reply.
          </span>
        </label>
      </div>
      <div className="flex items-start gap-2 pl-6">
        <input
          id={telegramId}
          type="checkbox"
          className="mt-0.5 size-4 accent-accent"
          checked={settings.telegram}
          disabled={!settings.subscribed || !settings.telegramAvailable || update.isPending}
          onChange={(event) => save(true, event.target.checked)}
        />
        <label htmlFor={telegramId} className="text-sm text-ink">
          Also by Telegram
          {settings.telegramAvailable ? null : (
            <span className="block text-xs text-muted">
              Link your Telegram account first: send !link to the bot.
            </span>
          )}
        </label>
      </div>
    </fieldset>
  );
}
