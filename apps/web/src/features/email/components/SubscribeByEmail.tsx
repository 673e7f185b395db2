import {
  EMAIL_LIMITS,
  EMAIL_MODE_LABELS,
  EMAIL_TEXTS,
  type EmailMode,
  emailSubscribeRequestSchema,
} from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { MailIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { Select } from "#web/components/ui/select";
import { ApiError, serverMessage } from "#web/lib/api";
import { emailStatusQueryOptions } from "../api";
import { useSubscribeByEmail } from "../mutations";

/** The server's field issue for `field`, when it refused the request with one. */
function fieldIssue(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const details = (error.body as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  return (details as Array<{ path?: string; message?: string }>).find((issue) => issue.path === field)
    ?.message;
}

/**
 * "Subscribe by email" on a feed's page: shown only when the feed's owner turned email on and this server can send
 * mail. No account needed; the reader confirms from the mail. Owners see, instead, why it is hidden when the server
 * cannot send.
 */
export function SubscribeByEmail({ feedId, canEdit = false }: { feedId: string; canEdit?: boolean }) {
  const status = useQuery(emailStatusQueryOptions(feedId));
  if (status.data?.availability === "smtp-off" && canEdit) {
    return (
      <Alert variant="warning" className="mt-4">
        {EMAIL_TEXTS.smtpOff}
      </Alert>
    );
  }
  if (status.data?.availability !== "on") return null;
  return <SubscribeForm feedId={feedId} feedName={status.data.feedName} modes={status.data.modes} />;
}

function SubscribeForm({
  feedId,
  feedName,
  modes,
}: {
  feedId: string;
  feedName: string;
  modes: EmailMode[];
}) {
  const subscribe = useSubscribeByEmail();
  const [email, setEmail] = useState("");
  const [mode, setMode] = useState<EmailMode>(modes[0] ?? "every");
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const check = emailSubscribeRequestSchema.safeParse({ feedId, email, mode });
    if (!check.success) {
      setError(
        check.error.issues.find((issue) => issue.path[0] === "email")?.message ??
          check.error.issues[0]?.message,
      );
      return;
    }
    setError(undefined);
    subscribe.mutate(check.data, {
      onSuccess: (answer) => setSent(answer.message),
      onError: (failure) =>
        setError(fieldIssue(failure, "email") ?? serverMessage(failure) ?? "Something went wrong"),
    });
  }

  return (
    <section
      aria-labelledby="subscribe-by-email-title"
      className="mt-5 rounded-md border border-line bg-canvas/60 px-4 py-4 sm:px-5"
    >
      <div className="flex items-center gap-2">
        <MailIcon aria-hidden="true" className="size-4 text-accent" />
        <h2 id="subscribe-by-email-title" className="text-sm font-semibold text-ink">
          Subscribe by email
        </h2>
      </div>
      {sent ? (
        <Alert variant="info" className="mt-3">
          {sent}
        </Alert>
      ) : (
        <form
          onSubmit={submit}
          noValidate
          className="mt-3 flex max-w-2xl flex-col gap-3"
          aria-label={`Subscribe to ${feedName} by email`}
        >
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <FormField label="Email address" error={error} className="min-w-0 flex-1">
              <Input
                type="email"
                value={email}
                autoComplete="email"
                inputMode="email"
                placeholder="you@example.org"
                maxLength={EMAIL_LIMITS.addressLength}
                onChange={(event) => setEmail(event.target.value)}
              />
            </FormField>
            {modes.length > 1 ? (
              <Select
                label="Send me"
                value={mode}
                options={modes.map((value) => ({ value, label: EMAIL_MODE_LABELS[value] }))}
                onValueChange={setMode}
                className="sm:w-56"
              />
            ) : null}
            <Button type="submit" loading={subscribe.isPending} className={error ? "sm:mb-7" : undefined}>
              Subscribe
            </Button>
          </div>
          <p className="text-xs text-muted">
            {EMAIL_TEXTS.ownerSees} No account needed; we send a link to confirm first, and every mail has a
            one-click unsubscribe.
          </p>
        </form>
      )}
    </section>
  );
}
