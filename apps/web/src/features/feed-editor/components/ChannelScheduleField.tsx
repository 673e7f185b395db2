import {
  type ChannelSchedule,
  DEFAULT_SCHEDULE_TIMEZONE,
  describeChannelSchedule,
  SCHEDULE_LIMITS,
  scheduleOf,
} from "@curate/core";
import { useState } from "react";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { Select } from "#web/components/ui/select";

type Mode = ChannelSchedule["mode"];

const MODES = [
  { value: "immediate", label: "At once (when approved)" },
  { value: "slots", label: "In daily slots" },
  { value: "rate", label: "At most N per hour or day" },
] as const;

const PERIODS = [
  { value: "hour", label: "per hour" },
  { value: "day", label: "per day" },
] as const;

function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_SCHEDULE_TIMEZONE;
  } catch {
    return DEFAULT_SCHEDULE_TIMEZONE;
  }
}

/** "09:00, 13:00 18:00" → ["09:00", "13:00", "18:00"]; the server says which entries are not times. */
const slotList = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((slot) => slot.trim())
    .filter(Boolean)
    .slice(0, SCHEDULE_LIMITS.slots + 1);

/**
 * When a stream distributor publishes (decision 0036): at once, in daily slots in a timezone, or at most N per hour
 * or day. Absent is "at once", so a config without schedules stays as it was.
 */
export function ChannelScheduleField({
  label,
  value,
  onChange,
}: {
  /** "Distributor 1": the fields' labels start with it. */
  label: string;
  value: unknown;
  onChange: (schedule: ChannelSchedule | undefined) => void;
}) {
  const raw = (value && typeof value === "object" ? value : {}) as Partial<ChannelSchedule>;
  const mode: Mode = raw.mode === "slots" || raw.mode === "rate" ? raw.mode : "immediate";
  const [slotsText, setSlotsText] = useState((raw.slots ?? []).join(", "));
  const readable = scheduleOf({ schedule: value });

  const choose = (next: Mode) => {
    if (next === "immediate") onChange(undefined);
    else if (next === "slots") {
      const slots = slotList(slotsText);
      onChange({ mode: "slots", slots: slots.length ? slots : ["09:00"], timezone: browserTimezone() });
      if (!slots.length) setSlotsText("09:00");
    } else onChange({ mode: "rate", count: 4, per: "day" });
  };

  return (
    <div className="flex flex-col gap-3 rounded-md border border-dashed border-line p-3">
      <Select<Mode>
        label={`${label} publishing schedule`}
        value={mode}
        options={MODES}
        onValueChange={choose}
      />
      {mode === "slots" ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label={`${label} slots (HH:MM)`}>
            <Input
              value={slotsText}
              placeholder="09:00, 13:00, 18:00"
              onChange={(event) => {
                setSlotsText(event.target.value);
                onChange({ ...raw, mode: "slots", slots: slotList(event.target.value) } as ChannelSchedule);
              }}
            />
          </FormField>
          <FormField label={`${label} timezone`}>
            <Input
              value={raw.timezone ?? ""}
              placeholder={DEFAULT_SCHEDULE_TIMEZONE}
              onChange={(event) =>
                onChange({
                  ...raw,
                  mode: "slots",
                  slots: raw.slots ?? [],
                  ...(event.target.value ? { timezone: event.target.value } : { timezone: undefined }),
                } as ChannelSchedule)
              }
            />
          </FormField>
        </div>
      ) : null}
      {mode === "rate" ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label={`${label} posts at most`}>
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              max={SCHEDULE_LIMITS.maxRate}
              value={raw.count ?? ""}
              onChange={(event) =>
                onChange({ mode: "rate", per: raw.per ?? "day", count: Number(event.target.value) })
              }
            />
          </FormField>
          <Select<"hour" | "day">
            label={`${label} period`}
            value={raw.per === "hour" ? "hour" : "day"}
            options={PERIODS}
            onValueChange={(per) => onChange({ mode: "rate", count: raw.count ?? 1, per })}
          />
        </div>
      ) : null}
      <p className="text-xs text-muted">
        {mode === "immediate"
          ? "Publishes as soon as a post is approved."
          : readable
            ? `${describeChannelSchedule(readable)}. Approved posts wait in the feed's Scheduled tab for their turn.`
            : "Complete the schedule to see when posts go out."}
      </p>
    </div>
  );
}
