import {
  LOG_ACTION_LABELS,
  LOG_ACTIONS,
  type LogAction,
  PLATFORM_LABELS,
  PLATFORMS,
  type Platform,
} from "@curate/core";
import { type FormEvent, type InputHTMLAttributes, useId, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Input } from "#web/components/ui/input";
import { Select } from "#web/components/ui/select";
import { cn } from "#web/lib/cn";
import { hasLogFilters, type LogFilters } from "../filters";

const ACTION_OPTIONS = [
  { value: "", label: "All actions" },
  ...LOG_ACTIONS.map((action) => ({ value: action, label: LOG_ACTION_LABELS[action] })),
] as const;
const NETWORK_OPTIONS = [
  { value: "", label: "All networks" },
  ...PLATFORMS.map((platform) => ({ value: platform, label: PLATFORM_LABELS[platform] })),
] as const;

/** The log's filters: what was done, by whom, on which network, between which days. Applied together. */
export function LogFilterForm({
  filters,
  onApply,
}: {
  filters: LogFilters;
  onApply: (next: LogFilters) => void;
}) {
  const [draft, setDraft] = useState(filters);
  const set = (patch: Partial<LogFilters>) => setDraft((current) => ({ ...current, ...patch }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onApply({
      action: draft.action || undefined,
      moderator: draft.moderator?.trim() || undefined,
      network: draft.network || undefined,
      from: draft.from || undefined,
      to: draft.to || undefined,
    });
  };
  const clear = () => {
    setDraft({});
    onApply({});
  };
  return (
    <form
      onSubmit={apply}
      aria-label="Filter the moderation log"
      className="grid grid-cols-2 gap-3 rounded-md border border-line bg-surface p-4 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]"
    >
      <Select
        className="min-w-0"
        label="Action"
        value={draft.action ?? ""}
        options={ACTION_OPTIONS}
        onValueChange={(action) => set({ action: (action || undefined) as LogAction | undefined })}
      />
      <Select
        className="min-w-0"
        label="Network"
        value={draft.network ?? ""}
        options={NETWORK_OPTIONS}
        onValueChange={(network) => set({ network: (network || undefined) as Platform | undefined })}
      />
      <FilterInput
        className="col-span-2 lg:col-span-1"
        label="Moderator"
        value={draft.moderator ?? ""}
        maxLength={200}
        placeholder="alice.near or @handle"
        onChange={(event) => set({ moderator: event.target.value })}
      />
      <FilterInput
        label="From"
        type="date"
        value={draft.from ?? ""}
        onChange={(event) => set({ from: event.target.value })}
      />
      <FilterInput
        label="To"
        type="date"
        value={draft.to ?? ""}
        onChange={(event) => set({ to: event.target.value })}
      />
      <div className="col-span-2 flex items-end gap-2 lg:col-span-1">
        <Button type="submit">Apply</Button>
        {hasLogFilters(filters) || hasLogFilters(draft) ? (
          <Button type="button" variant="ghost" onClick={clear}>
            Clear
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** A text or date input labelled like the selects beside it. */
function FilterInput({
  label,
  className,
  ...props
}: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className={cn("flex min-w-0 flex-col gap-1.5", className)}>
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      <Input id={id} {...props} />
    </div>
  );
}
