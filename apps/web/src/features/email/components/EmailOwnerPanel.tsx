import { EMAIL_LIMITS, EMAIL_TEXTS, type EmailSubscriberSummary, emailTestRequestSchema } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { DownloadIcon, SendIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button, buttonClasses } from "#web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { Skeleton } from "#web/components/ui/skeleton";
import { toast } from "#web/components/ui/toast";
import { serverMessage } from "#web/lib/api";
import { subscriberExportUrl, subscriberSummaryQueryOptions } from "../api";
import { useSendTestMail } from "../mutations";

const number = new Intl.NumberFormat("en");

/**
 * Settings → Email, for the feed's owner and admins: whether email is on, the subscribers in numbers and their
 * growth, the list as CSV (their own readers' addresses), and "Send me a test".
 */
export function EmailOwnerPanel({ feedId }: { feedId: string }) {
  const summary = useQuery(subscriberSummaryQueryOptions(feedId));
  if (summary.isPending) return <Skeleton className="h-64 w-full" aria-label="Loading email subscribers" />;
  if (summary.isError) {
    return (
      <Alert>Could not load the email subscribers: {serverMessage(summary.error) ?? "Unknown error"}</Alert>
    );
  }
  const data = summary.data;
  return (
    <div className="flex flex-col gap-5">
      {data.availability === "smtp-off" ? (
        <Alert variant="warning">{EMAIL_TEXTS.smtpOff}</Alert>
      ) : data.availability === "feed-off" ? (
        <Alert variant="info" title="Email is off for this feed.">
          Add the <code className="font-mono text-xs">@curate/email</code> distributor in the feed editor: in
          the stream to mail every approved item, in a recap to mail its digest. Readers can then subscribe on
          the feed's page.
        </Alert>
      ) : null}
      <Counts data={data} />
      <Growth growth={data.growth} />
      <Card>
        <CardHeader>
          <CardTitle>Your subscribers</CardTitle>
          <p className="text-sm text-muted">
            The list holds your readers' addresses: keep it safe. Sent mails cannot be edited or retracted:
            undo and schedule changes act before sending; a retraction is recorded only.
          </p>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <a
            href={subscriberExportUrl(feedId)}
            download
            className={`${buttonClasses("secondary", "sm")} self-start`}
          >
            <DownloadIcon aria-hidden="true" />
            Export as CSV
          </a>
          {data.availability === "smtp-off" ? null : <TestMailForm feedId={feedId} />}
        </CardContent>
      </Card>
    </div>
  );
}

function Counts({ data }: { data: EmailSubscriberSummary }) {
  const items: Array<[string, number]> = [
    ["Confirmed", data.confirmed],
    ["Waiting to confirm", data.pending],
    ["Every item", data.byMode.every],
    ["Digest", data.byMode.digest],
    ["Mails queued", data.queued],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Subscribers">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-md border border-line bg-surface px-4 py-3 shadow-xs">
          <dt className="text-xs text-muted">{label}</dt>
          <dd className="mt-1 text-2xl font-bold text-ink tabular-nums">{number.format(value)}</dd>
        </div>
      ))}
      <p className="col-span-full text-xs text-muted">
        At most {number.format(data.cap)} subscribers per feed on this server.
      </p>
    </dl>
  );
}

function Growth({ growth }: { growth: EmailSubscriberSummary["growth"] }) {
  const peak = Math.max(1, ...growth.map((day) => Math.max(day.confirmed, day.unsubscribed)));
  const joined = growth.reduce((sum, day) => sum + day.confirmed, 0);
  const left = growth.reduce((sum, day) => sum + day.unsubscribed, 0);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Last 30 days</CardTitle>
        <p className="text-sm text-muted">
          {number.format(joined)} confirmed, {number.format(left)} unsubscribed.
        </p>
      </CardHeader>
      <CardContent>
        <ol className="flex h-24 items-end gap-[3px]" aria-label="Confirmations per day">
          {growth.map((day) => (
            <li
              key={day.day}
              className="flex flex-1 flex-col justify-end"
              title={`${day.day}: ${day.confirmed} confirmed, ${day.unsubscribed} unsubscribed`}
            >
              <span className="sr-only">{`${day.day}: ${day.confirmed} confirmed, ${day.unsubscribed} unsubscribed`}</span>
              <span
                aria-hidden="true"
                className="block rounded-t-sm bg-accent"
                style={{
                  height: `${Math.max(2, (day.confirmed / peak) * 88)}px`,
                  opacity: day.confirmed ? 1 : 0.2,
                }}
              />
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

function TestMailForm({ feedId }: { feedId: string }) {
  const send = useSendTestMail(feedId);
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | undefined>();
  function submit(event: FormEvent) {
    event.preventDefault();
    const check = emailTestRequestSchema.safeParse({ email });
    if (!check.success) {
      setError(check.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    send.mutate(check.data.email, {
      onSuccess: (answer) => toast.success("Test mail sent", { description: answer.message }),
      onError: (failure) =>
        toast.error("Could not send the test", { description: serverMessage(failure) ?? undefined }),
    });
  }
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Send me a test"
      className="flex max-w-2xl flex-col gap-3 sm:flex-row sm:items-end"
    >
      <FormField
        label="Send me a test"
        hint="A sample mail of this feed, to your own address."
        error={error}
        className="min-w-0 flex-1"
      >
        <Input
          type="email"
          value={email}
          autoComplete="email"
          maxLength={EMAIL_LIMITS.addressLength}
          onChange={(event) => setEmail(event.target.value)}
        />
      </FormField>
      <Button type="submit" variant="secondary" loading={send.isPending} className="sm:mb-6">
        <SendIcon aria-hidden="true" />
        Send test
      </Button>
    </form>
  );
}
