import type { ReminderSettings, ReminderSettingsUpdate } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "#web/lib/api";
import { queueKeys, reminderSettingsPath } from "./api";

export function useUpdateReminderSettings(feedId: string, accountId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: ReminderSettingsUpdate) =>
      api<ReminderSettings>(reminderSettingsPath(feedId), { method: "PUT", body: update }),
    onSuccess: (settings) => queryClient.setQueryData(queueKeys.settings(feedId, accountId), settings),
  });
}

export function useMarkRemindersRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: number[]) =>
      api<{ marked: number }>("/reminders/read", { method: "POST", body: ids ? { ids } : {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queueKeys.allReminders() }),
  });
}
