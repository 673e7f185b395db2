import { type FeedSecret, feedSecretNameSchema, setFeedSecretBodySchema } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { KeyRoundIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { Dialog, DialogClose, DialogContent } from "#web/components/ui/dialog";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { Skeleton } from "#web/components/ui/skeleton";
import { toast } from "#web/components/ui/toast";
import { serverMessage } from "#web/lib/api";
import { formatDatePattern } from "#web/lib/format";
import { feedSecretsQueryOptions } from "../api";
import { useDeleteFeedSecret, useSetFeedSecret } from "../mutations";

const setOn = (secret: FeedSecret) => `set on ${formatDatePattern(secret.updatedAt, "MMM d, yyyy")}`;

/**
 * The edit page's Secrets section: a feed's own credentials, referenced from its config as `{{NAME}}`. Values go
 * in and never come back: the list shows names and when each was set.
 */
export function FeedSecretsSection({ feedId }: { feedId: string }) {
  const secrets = useQuery(feedSecretsQueryOptions(feedId));
  const [replacing, setReplacing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Secrets</CardTitle>
        <p className="text-sm text-muted">
          Tokens and keys this feed's steps use, written in the configuration as{" "}
          <code className="rounded bg-canvas px-1 font-mono text-xs">{"{{NAME}}"}</code>. They are encrypted
          on the server and filled in only when a step runs; once saved, a value cannot be shown again, only
          replaced.
        </p>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {secrets.isPending ? (
          <div className="flex flex-col gap-2" role="status" aria-label="Loading secrets">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : secrets.isError ? (
          <Alert variant="error" role="alert">
            Could not load the feed's secrets: {serverMessage(secrets.error) ?? "Unknown error"}
          </Alert>
        ) : secrets.data.length === 0 ? (
          <p className="text-sm text-muted">No secrets yet.</p>
        ) : (
          <ul
            className="flex flex-col divide-y divide-line rounded-md border border-line"
            aria-label="Secrets"
          >
            {secrets.data.map((secret) => (
              <li key={secret.name} className="flex flex-col gap-3 px-4 py-3">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
                  <KeyRoundIcon aria-hidden="true" className="size-4 shrink-0 text-muted" />
                  <code className="min-w-0 font-mono text-sm break-all text-ink">{`{{${secret.name}}}`}</code>
                  <span className="text-sm text-muted">{setOn(secret)}</span>
                  <span className="ml-auto flex gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-expanded={replacing === secret.name}
                      onClick={() => setReplacing(replacing === secret.name ? null : secret.name)}
                    >
                      Replace
                    </Button>
                    <Button
                      variant="secondary"
                      size="sm"
                      className="text-red-700 hover:bg-red-50"
                      aria-label={`Delete ${secret.name}`}
                      onClick={() => setDeleting(secret.name)}
                    >
                      <Trash2Icon aria-hidden="true" />
                      Delete
                    </Button>
                  </span>
                </div>
                {replacing === secret.name ? (
                  <SecretForm feedId={feedId} fixedName={secret.name} onDone={() => setReplacing(null)} />
                ) : null}
              </li>
            ))}
          </ul>
        )}
        <SecretForm feedId={feedId} />
      </CardContent>
      <DeleteSecretDialog feedId={feedId} name={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}

interface SecretFormProps {
  feedId: string;
  /** Replacing this secret's value; adding a new one when left out. */
  fixedName?: string;
  onDone?: () => void;
}

function SecretForm({ feedId, fixedName, onDone }: SecretFormProps) {
  const save = useSetFeedSecret(feedId);
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [errors, setErrors] = useState<{ name?: string; value?: string }>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const chosenName = fixedName ?? name.trim();
    const nameCheck = feedSecretNameSchema.safeParse(chosenName);
    const valueCheck = setFeedSecretBodySchema.safeParse({ value });
    const found = {
      name: nameCheck.success ? undefined : nameCheck.error.issues[0]?.message,
      value: valueCheck.success ? undefined : valueCheck.error.issues[0]?.message,
    };
    setErrors(found);
    if (found.name || found.value) return;
    save.mutate(
      { name: chosenName, value },
      {
        onSuccess: () => {
          toast.success(fixedName ? "Secret replaced" : "Secret added", {
            description: `The feed's steps can use {{${chosenName}}}.`,
          });
          setName("");
          setValue("");
          onDone?.();
        },
        onError: (error) =>
          toast.error("Could not save the secret", { description: serverMessage(error) ?? "Unknown error" }),
      },
    );
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={fixedName ? `Replace ${fixedName}` : "Add a secret"}
      className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)_auto] sm:items-start"
    >
      {fixedName ? null : (
        <FormField label="Name" error={errors.name} hint="e.g. TELEGRAM_BOT_TOKEN">
          <Input
            value={name}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            maxLength={64}
            onChange={(event) => setName(event.target.value.toUpperCase())}
          />
        </FormField>
      )}
      <FormField
        label={fixedName ? `New value for ${fixedName}` : "Value"}
        error={errors.value}
        className={fixedName ? "sm:col-span-2" : undefined}
      >
        <Input
          type="password"
          value={value}
          autoComplete="new-password"
          spellCheck={false}
          onChange={(event) => setValue(event.target.value)}
        />
      </FormField>
      <Button type="submit" loading={save.isPending} className="sm:mt-6">
        {fixedName ? null : <PlusIcon aria-hidden="true" />}
        {fixedName ? "Save Value" : "Add Secret"}
      </Button>
    </form>
  );
}

function DeleteSecretDialog({
  feedId,
  name,
  onClose,
}: {
  feedId: string;
  name: string | null;
  onClose: () => void;
}) {
  const remove = useDeleteFeedSecret(feedId);
  return (
    <Dialog open={name !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title="Delete Secret"
        description={`Delete {{${name ?? ""}}}? Steps that use it will fail until it is added again.`}
      >
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button
            className="bg-red-700 hover:bg-red-800"
            loading={remove.isPending}
            onClick={() =>
              name &&
              remove.mutate(name, {
                onSuccess: () => {
                  toast.success("Secret deleted", { description: `{{${name}}} is gone.` });
                  onClose();
                },
                onError: (error) =>
                  toast.error("Could not delete the secret", {
                    description: serverMessage(error) ?? "Unknown error",
                  }),
              })
            }
          >
            Delete
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
