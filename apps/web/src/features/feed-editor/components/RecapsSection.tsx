import {
  DEFAULT_RECAP_TIMEZONE,
  describeSchedule,
  formatRunTime,
  isValidTimezone,
  nextRecapRuns,
  scheduleProblem,
} from "@curate/core";
import { CalendarClockIcon, ChevronDownIcon, PlusIcon } from "lucide-react";
import { useMemo } from "react";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { newRecapForm, type RecapErrors, type RecapForm } from "#web/features/feed-editor/form-model";
import type { FieldIssue } from "#web/features/feeds/mutations";
import { cn } from "#web/lib/cn";
import { Checkbox, RemoveButton, removeAt, replaceAt, Section, StepList } from "./form-parts";

/** The runtime's IANA timezones (UTC first); a value outside the list stays offered so the form can show it. */
function useTimezones(): string[] {
  return useMemo(() => {
    const supported =
      typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["Europe/London"];
    return [DEFAULT_RECAP_TIMEZONE, ...supported.filter((zone) => zone !== DEFAULT_RECAP_TIMEZONE)];
  }, []);
}

function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_RECAP_TIMEZONE;
  } catch {
    return DEFAULT_RECAP_TIMEZONE;
  }
}

interface RecapsSectionProps {
  recaps: RecapForm[];
  errors?: RecapErrors;
  issues: FieldIssue[];
  generation: number;
  /** Functional, so edits made before the next render (a field committed on blur, then a click) all count. */
  onChange: (change: (recaps: RecapForm[]) => RecapForm[]) => void;
}

/** The edit form's Recaps section: scheduled digests of the feed's approvals, each with its own steps. */
export function RecapsSection({ recaps, errors, issues, generation, onChange }: RecapsSectionProps) {
  const timezones = useTimezones();
  return (
    <Section
      title="Recaps"
      action={
        <Button
          variant="secondary"
          size="sm"
          onClick={() => onChange((current) => [...current, newRecapForm(current, browserTimezone())])}
        >
          <PlusIcon aria-hidden="true" />
          Add Recap
        </Button>
      }
    >
      <p className="max-w-prose text-sm text-muted">
        A recap posts a digest on a schedule: it gathers the posts approved since its last run, runs its item
        transforms on each post, its batch transforms once over the whole list, then sends the result through
        its distributors. A period without approvals posts nothing.
      </p>
      {recaps.length === 0 ? <p className="text-sm text-muted">No recaps yet.</p> : null}
      {recaps.map((recap, index) => (
        <RecapCard
          // biome-ignore lint/suspicious/noArrayIndexKey: recaps are edited in place by position
          key={`${generation}-${index}-${recaps.length}`}
          index={index}
          recap={recap}
          single={recaps.length === 1}
          errors={errors}
          issues={issues}
          timezones={timezones}
          generation={generation}
          onChange={(change) => onChange((current) => replaceAt(current, index, change(current[index])))}
          onRemove={() => onChange((current) => removeAt(current, index))}
        />
      ))}
    </Section>
  );
}

interface RecapCardProps {
  index: number;
  recap: RecapForm;
  /** The config may hold one recap as an object: its issues then have no index in their path. */
  single: boolean;
  errors?: RecapErrors;
  issues: FieldIssue[];
  timezones: string[];
  generation: number;
  onChange: (change: (recap: RecapForm) => RecapForm) => void;
  onRemove: () => void;
}

function RecapCard({
  index,
  recap,
  single,
  errors,
  issues,
  timezones,
  generation,
  onChange,
  onRemove,
}: RecapCardProps) {
  const number = index + 1;
  const set = <K extends keyof RecapForm>(key: K, value: RecapForm[K]) =>
    onChange((current) => ({ ...current, [key]: value }));
  const errorOf = (field: "id" | "schedule" | "timezone" | "name") => {
    const local = errors?.[`${index}.${field}`];
    if (local) return local;
    const paths = [`outputs.recap.${index}.${field}`, ...(single ? [`outputs.recap.${field}`] : [])];
    return issues.find((issue) => paths.includes(issue.path))?.message;
  };
  const zone = recap.timezone.trim() || DEFAULT_RECAP_TIMEZONE;
  const zones = timezones.includes(zone) ? timezones : [zone, ...timezones];
  const prefix = `Recap ${number} `;

  return (
    <fieldset
      aria-label={`Recap ${number}`}
      className="flex flex-col gap-4 rounded-md border border-line bg-canvas p-3 sm:p-4"
    >
      <div className="flex items-center justify-between gap-3">
        <h3 className="min-w-0 truncate font-display text-base font-semibold">
          Recap {number}
          {recap.name.trim() ? <span className="font-normal text-muted"> · {recap.name.trim()}</span> : null}
        </h3>
        <RemoveButton label={`Remove recap ${number}`} onClick={onRemove} />
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <FormField label="Name" error={errorOf("name")}>
          <Input
            value={recap.name}
            placeholder="Weekly digest"
            onChange={(e) => set("name", e.target.value)}
          />
        </FormField>
        <FormField label="Recap ID" hint="Lower-case letters, digits, - and _" error={errorOf("id")}>
          <Input value={recap.id} placeholder="weekly" onChange={(e) => set("id", e.target.value)} />
        </FormField>
        <FormField
          label="Schedule (cron)"
          hint="minute hour day-of-month month day-of-week, e.g. 0 9 * * 1"
          error={errorOf("schedule")}
        >
          <Input
            value={recap.schedule}
            className="font-mono"
            spellCheck={false}
            placeholder="0 9 * * 1"
            onChange={(e) => set("schedule", e.target.value)}
          />
        </FormField>
        <FormField label="Timezone" error={errorOf("timezone")}>
          <TimezoneSelect value={zone} zones={zones} onChange={(value) => set("timezone", value)} />
        </FormField>
      </div>
      <SchedulePreview schedule={recap.schedule} timezone={zone} />
      <Checkbox label="Enabled" checked={recap.enabled} onChange={(value) => set("enabled", value)} />
      <StepList
        title="Item transforms"
        description="Run on each approved post."
        noun="Item transform"
        kind="transformer"
        labelPrefix={prefix}
        steps={recap.transforms}
        generation={generation}
        onChange={(steps) => set("transforms", steps)}
      />
      <StepList
        title="Batch transforms"
        description="Run once over the whole list (its items, count and period), e.g. an AI summary or a template."
        noun="Batch transform"
        kind="transformer"
        labelPrefix={prefix}
        steps={recap.batchTransforms}
        generation={generation}
        onChange={(steps) => set("batchTransforms", steps)}
      />
      <StepList
        title="Distributors"
        noun="Distributor"
        kind="distributor"
        labelPrefix={prefix}
        steps={recap.distributors}
        generation={generation}
        onChange={(steps) => set("distributors", steps)}
      />
    </fieldset>
  );
}

function TimezoneSelect({
  value,
  zones,
  onChange,
  ...wired
}: {
  value: string;
  zones: string[];
  onChange: (value: string) => void;
  id?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}) {
  return (
    <div className="relative">
      <select
        {...wired}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={cn(
          "h-10 w-full cursor-pointer appearance-none rounded-md border border-line bg-surface pr-9 pl-3 text-sm text-ink",
          "shadow-xs transition-colors hover:bg-zinc-50 focus-visible:border-accent",
        )}
      >
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone.replaceAll("_", " ")}
          </option>
        ))}
      </select>
      <ChevronDownIcon
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted"
      />
    </div>
  );
}

/** The schedule in words and its next three runs in the recap's timezone, as typed. */
function SchedulePreview({ schedule, timezone }: { schedule: string; timezone: string }) {
  const problem = scheduleProblem(schedule);
  const zoneKnown = isValidTimezone(timezone);
  const reading = problem ? null : describeSchedule(schedule);
  const runs = problem || !zoneKnown ? [] : nextRecapRuns(schedule, timezone, 3);
  return (
    <div
      className="flex gap-3 rounded-md border border-line bg-surface p-3 text-sm"
      aria-live="polite"
      data-testid="schedule-preview"
    >
      <CalendarClockIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
      {problem ? (
        <p className="text-red-700">{problem}</p>
      ) : (
        <div className="flex min-w-0 flex-col gap-1.5">
          <p className="font-medium text-ink">{reading ?? schedule}</p>
          {runs.length ? (
            <div>
              <p className="text-xs font-medium text-muted">Next runs</p>
              <ol className="mt-1 flex flex-col gap-0.5 text-ink tabular-nums">
                {runs.map((run) => (
                  <li key={run.toISOString()}>{formatRunTime(run, timezone)}</li>
                ))}
              </ol>
            </div>
          ) : null}
        </div>
      )}
    </div>
  );
}
