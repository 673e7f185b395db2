import {
  API_SCOPE_LABELS,
  API_SCOPES,
  API_TOKEN_EXPIRY_CHOICES,
  API_TOKEN_LIMITS,
  type ApiScope,
  type ApiTokenCreated,
  apiTokenCreateRequestSchema,
} from "@curate/core";
import { PlusIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { Select } from "#web/components/ui/select";
import { toast } from "#web/components/ui/toast";
import { serverMessage } from "#web/lib/api";
import { useCreateApiToken } from "../mutations";

const NO_EXPIRY = "never";
const DEFAULT_SCOPES: ApiScope[] = ["read"];
const DEFAULT_EXPIRY = "30";
const EXPIRY_OPTIONS = API_TOKEN_EXPIRY_CHOICES.map((choice) => ({
  value: choice.days === null ? NO_EXPIRY : String(choice.days),
  label: choice.label,
}));

interface CreateTokenFormProps {
  accountId: string;
  onCreated: (created: ApiTokenCreated) => void;
}

/** Name, scopes and expiry of a new token; what the server answers (with the secret) goes to `onCreated`. */
export function CreateTokenForm({ accountId, onCreated }: CreateTokenFormProps) {
  const create = useCreateApiToken(accountId);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiScope[]>(DEFAULT_SCOPES);
  const [expiry, setExpiry] = useState(DEFAULT_EXPIRY);
  const [errors, setErrors] = useState<{ name?: string; scopes?: string }>({});
  const scopesErrorId = useId();

  const toggle = (scope: ApiScope, on: boolean) =>
    setScopes((current) => API_SCOPES.filter((s) => (s === scope ? on : current.includes(s))));

  function submit(event: FormEvent) {
    event.preventDefault();
    const request = {
      name: name.trim(),
      scopes,
      expiresInDays: expiry === NO_EXPIRY ? null : Number(expiry),
    };
    const check = apiTokenCreateRequestSchema.safeParse(request);
    const issue = (field: string) =>
      check.success ? undefined : check.error.issues.find((i) => i.path[0] === field)?.message;
    const found = { name: issue("name"), scopes: issue("scopes") };
    setErrors(found);
    if (!check.success) return;
    create.mutate(check.data, {
      onSuccess: (created) => {
        // The next token starts from the defaults again: a choice made for one script should not carry over.
        setName("");
        setScopes(DEFAULT_SCOPES);
        setExpiry(DEFAULT_EXPIRY);
        onCreated(created);
      },
      onError: (error) =>
        toast.error("Could not create the token", { description: serverMessage(error) ?? "Unknown error" }),
    });
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Create an API token" className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_12rem] sm:items-start">
        <FormField label="Name" error={errors.name} hint="What uses it, e.g. “Queue dashboard”">
          <Input
            value={name}
            maxLength={API_TOKEN_LIMITS.nameLength}
            autoComplete="off"
            onChange={(event) => setName(event.target.value)}
          />
        </FormField>
        <Select label="Expires" value={expiry} options={EXPIRY_OPTIONS} onValueChange={setExpiry} />
      </div>
      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={errors.scopes ? scopesErrorId : undefined}
        aria-invalid={errors.scopes ? true : undefined}
      >
        <legend className="mb-1 text-sm font-medium text-ink">Scopes</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {API_SCOPES.map((scope) => (
            <label
              key={scope}
              className="flex cursor-pointer items-start gap-3 rounded-md border border-line px-3 py-2.5 has-[:checked]:border-accent has-[:checked]:bg-accent-soft/40"
            >
              <input
                type="checkbox"
                className="mt-1 size-4 accent-accent"
                checked={scopes.includes(scope)}
                onChange={(event) => toggle(scope, event.target.checked)}
              />
              <span className="flex flex-col">
                <span className="text-sm font-medium text-ink">{API_SCOPE_LABELS[scope].label}</span>
                <span className="text-xs text-muted">{API_SCOPE_LABELS[scope].description}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.scopes ? (
          <p id={scopesErrorId} className="text-sm text-red-700">
            {errors.scopes}
          </p>
        ) : null}
      </fieldset>
      <div>
        <Button type="submit" loading={create.isPending}>
          <PlusIcon aria-hidden="true" />
          Create Token
        </Button>
      </div>
    </form>
  );
}
