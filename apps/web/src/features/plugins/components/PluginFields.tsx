import {
  entryPointRefusal,
  isHttpUrl,
  PLUGIN_TYPES,
  type PluginFormErrors,
  type PluginFormValues,
} from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { ChevronDownIcon } from "lucide-react";
import { Alert } from "#web/components/ui/alert";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { Textarea } from "#web/components/ui/textarea";
import { appConfigQueryOptions } from "#web/features/config/api";

interface PluginFieldsProps {
  values: PluginFormValues;
  errors: PluginFormErrors;
  onChange: (values: PluginFormValues) => void;
  /** Name, repository and type are the plugin's identity: fixed once registered. */
  identityReadOnly: boolean;
  /** Nothing can be changed (a built-in, or someone else's plugin). */
  readOnly?: boolean;
}

// Fields that cannot be changed look it, not just refuse typing.
const FIXED = "read-only:bg-zinc-100 read-only:text-zinc-600";

/** The registration fields, shared by the create and the edit page. */
export function PluginFields({
  values,
  errors,
  onChange,
  identityReadOnly,
  readOnly = false,
}: PluginFieldsProps) {
  const set = (field: keyof PluginFormValues) => (event: { target: { value: string } }) =>
    onChange({ ...values, [field]: event.target.value });
  const config = useQuery(appConfigQueryOptions());
  // Said before saving: the server refuses an entry point on a host its operator does not run code from.
  const refusal =
    config.data && isHttpUrl(values.entryPoint.trim())
      ? entryPointRefusal(values.entryPoint.trim(), config.data.pluginHosts)
      : null;
  return (
    <div className="flex flex-col gap-5">
      <FormField
        label="Plugin Name"
        error={errors.name}
        hint={
          identityReadOnly
            ? undefined
            : "The name feed configs use: @scope/name in lower case, e.g. @acme/summary. Short names such as rss always mean the built-ins."
        }
      >
        <Input
          value={values.name}
          onChange={set("name")}
          readOnly={identityReadOnly || readOnly}
          className={FIXED}
          maxLength={100}
        />
      </FormField>
      <FormField label="Repository URL" error={errors.repoUrl}>
        <Input
          value={values.repoUrl}
          onChange={set("repoUrl")}
          readOnly={identityReadOnly || readOnly}
          className={FIXED}
          inputMode="url"
          placeholder={
            identityReadOnly || readOnly
              ? "Not published on this deployment"
              : "https://github.com/acme/summary"
          }
          maxLength={500}
        />
      </FormField>
      <FormField label="Plugin Type" error={errors.type}>
        <TypeSelect value={values.type} onChange={set("type")} disabled={identityReadOnly || readOnly} />
      </FormField>
      <FormField
        label="Entry Point URL"
        error={errors.entryPoint}
        hint="The ES module the server runs, isolated."
      >
        <Input
          value={values.entryPoint}
          onChange={set("entryPoint")}
          readOnly={readOnly}
          className={FIXED}
          inputMode="url"
          placeholder="https://example.com/remoteEntry.js"
          maxLength={500}
        />
      </FormField>
      {refusal && !readOnly ? (
        <Alert variant="warning" data-testid="entry-point-warning">
          {identityReadOnly
            ? `This server will not run this plugin (${refusal}).`
            : `This server runs no code from this entry point (${refusal}), so it will not register it.`}{" "}
          Ask its operator to add the host to PLUGIN_ALLOWED_HOSTS.
        </Alert>
      ) : null}
      <FormField
        label="Schema Definition (optional)"
        error={errors.schemaDefinition}
        hint="A JSON Schema for the plugin's config; feed configs are checked against it."
      >
        <Textarea
          value={values.schemaDefinition}
          onChange={set("schemaDefinition")}
          readOnly={readOnly}
          rows={8}
          spellCheck={false}
          className={`font-mono text-xs ${FIXED}`}
          placeholder='{ "type": "object", "properties": { } }'
        />
      </FormField>
    </div>
  );
}

interface TypeSelectProps {
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  disabled: boolean;
  id?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}

/** A native select (FormField hands it the label's id) with an empty first choice, so the type is chosen on purpose. */
function TypeSelect({ value, onChange, disabled, ...aria }: TypeSelectProps) {
  return (
    <div className="relative">
      <select
        {...aria}
        value={value}
        onChange={onChange}
        disabled={disabled}
        className="h-10 w-full cursor-pointer appearance-none rounded-md border border-line bg-surface pr-9 pl-3 text-sm text-ink shadow-xs focus-visible:border-accent disabled:cursor-default disabled:opacity-70"
      >
        <option value="">Select a type</option>
        {PLUGIN_TYPES.map((type) => (
          <option key={type} value={type}>
            {type[0].toUpperCase() + type.slice(1)}
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
