import type { ScheduleChangeAnswer } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "#web/components/ui/toast";
import { api, serverMessage } from "#web/lib/api";
import { scheduleKeys } from "./api";

export const SCHEDULE_TOASTS = {
  move: { done: "Moved", failed: "Could not move the item" },
  publishNow: { done: "Publishing now", failed: "Could not publish the item now" },
  remove: { done: "Removed from the schedule", failed: "Could not remove the item" },
} as const;

export type ScheduleChange =
  | { action: "move"; sendId: string; position: number }
  | { action: "publishNow"; sendId: string }
  | { action: "remove"; sendId: string };

/** Move, publish now or remove one waiting item; the line and the channel counts are asked again after. */
export function useChangeScheduledSend(feedId: string) {
  const queryClient = useQueryClient();
  const base = `/processing/feeds/${encodeURIComponent(feedId)}/schedule/sends`;
  return useMutation({
    mutationFn: (change: ScheduleChange) => {
      const item = `${base}/${encodeURIComponent(change.sendId)}`;
      if (change.action === "move") {
        return api<ScheduleChangeAnswer>(`${item}/move`, {
          method: "POST",
          body: { position: change.position },
        });
      }
      if (change.action === "publishNow") {
        return api<ScheduleChangeAnswer>(`${item}/publish-now`, { method: "POST" });
      }
      return api<ScheduleChangeAnswer>(item, { method: "DELETE" });
    },
    onSuccess: (_, change) => toast.success(SCHEDULE_TOASTS[change.action].done),
    onError: (error, change) =>
      toast.error(`${SCHEDULE_TOASTS[change.action].failed}: ${serverMessage(error) ?? "Unknown error"}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.feed(feedId) }),
  });
}
