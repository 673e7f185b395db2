import { PLUGINS } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { PlusIcon, Trash2Icon } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import type { StepForm } from "#web/features/feed-editor/form-model";
import { pluginNamesQueryOptions } from "#web/features/plugins/api";
import { ChannelScheduleField } from "./ChannelScheduleField";
import { StepConfigField } from "./StepConfigField";

/** Pieces the edit form's sections share: a section, a checkbox, a remove button and a list of plugin steps. */

export function Section({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <fieldset className="flex flex-col gap-4 border-t border-line pt-6 first:border-t-0 first:pt-0">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <legend className="font-display text-lg font-semibold">{title}</legend>
        {action}
      </div>
      {children}
    </fieldset>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className="flex w-fit cursor-pointer items-center gap-2.5 text-sm font-medium text-ink">
      <input
        type="checkbox"
        className="size-4 accent-accent"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      {label}
    </label>
  );
}

export function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button
      variant="ghost"
      size="sm"
      aria-label={label}
      onClick={onClick}
      className="text-muted hover:text-red-700"
    >
      <Trash2Icon aria-hidden="true" />
    </Button>
  );
}

export const replaceAt = <T,>(list: T[], index: number, item: T) =>
  list.map((current, i) => (i === index ? item : current));
export const removeAt = <T,>(list: T[], index: number) => list.filter((_, i) => i !== index);

export function StepList({
  title,
  noun,
  steps,
  generation,
  onChange,
  kind = noun === "Transform" ? "transformer" : "distributor",
  labelPrefix = "",
  description,
  schedules = false,
}: {
  title: string;
  noun: string;
  steps: StepForm[];
  generation: number;
  onChange: (steps: StepForm[]) => void;
  /** Which plugins the list takes (the names offered as the plugin is typed). */
  kind?: "transformer" | "distributor";
  /** Makes the fields' labels unique where several lists share a page ("Recap 1 "). */
  labelPrefix?: string;
  description?: string;
  /** Stream distributors: each has a publishing schedule (decision 0036). */
  schedules?: boolean;
}) {
  // The registry's names (built-in and registered) of the kind this list needs, offered as the plugin is typed.
  const names = useQuery(pluginNamesQueryOptions(kind));
  const listId = useId();
  return (
    <div className="flex flex-col gap-3">
      <datalist id={listId}>
        {(names.data ?? []).map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-col gap-0.5">
          <h3 className="text-sm font-semibold">{title}</h3>
          {description ? <p className="text-xs text-muted">{description}</p> : null}
        </div>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => onChange([...steps, { base: {}, plugin: "", config: {} }])}
        >
          <PlusIcon aria-hidden="true" />
          Add {noun}
        </Button>
      </div>
      {steps.length === 0 ? <p className="text-sm text-muted">None.</p> : null}
      {steps.map((step, index) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: steps run in list order; position is their identity
          key={`${generation}-${index}-${steps.length}`}
          className="flex flex-col gap-3 rounded-md border border-line bg-canvas p-4"
        >
          <div className="flex items-end gap-2">
            <FormField label={`${labelPrefix}${noun} ${index + 1} plugin`} className="flex-1">
              <Input
                list={listId}
                value={step.plugin}
                placeholder={kind === "transformer" ? PLUGINS.objectTransform : PLUGINS.rss}
                onChange={(event) =>
                  onChange(replaceAt(steps, index, { ...step, plugin: event.target.value }))
                }
              />
            </FormField>
            <RemoveButton
              label={`Remove ${labelPrefix.toLowerCase()}${noun.toLowerCase()} ${index + 1}`}
              onClick={() => onChange(removeAt(steps, index))}
            />
          </div>
          <StepConfigField
            label={`${labelPrefix}${noun} ${index + 1} config (JSON)`}
            config={step.config}
            onCommit={(config) => onChange(replaceAt(steps, index, { ...step, config }))}
          />
          {schedules ? (
            <ChannelScheduleField
              label={`${labelPrefix}${noun} ${index + 1}`}
              value={step.base.schedule}
              onChange={(schedule) => {
                const { schedule: _previous, ...base } = step.base;
                onChange(replaceAt(steps, index, { ...step, base: schedule ? { ...base, schedule } : base }));
              }}
            />
          ) : null}
        </div>
      ))}
    </div>
  );
}
