import { EMAIL_MODE_LABELS, type EmailMode, type EmailSubscription } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { CheckCircle2Icon, MailIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { PageContainer } from "#web/components/layout/PageContainer";
import { Alert } from "#web/components/ui/alert";
import { Button, buttonClasses } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { Skeleton } from "#web/components/ui/skeleton";
import { toast } from "#web/components/ui/toast";
import { ApiError, serverMessage } from "#web/lib/api";
import { subscriptionQueryOptions } from "../api";
import { useChangeSubscriptionMode, useConfirmSubscription, useUnsubscribe } from "../mutations";

/**
 * The pages a reader reaches from a mail: confirm, manage, unsubscribe. None needs a sign-in, and each acts only
 * when its button is pressed (a POST): mail scanners that open links change nothing.
 */

function LinkPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PageContainer className="flex max-w-xl flex-col gap-5 py-12">
      <title>{`${title} · Curate`}</title>
      <div className="flex items-center gap-3">
        <span className="flex size-10 items-center justify-center rounded-full bg-accent-soft text-accent">
          <MailIcon aria-hidden="true" className="size-5" />
        </span>
        <h1 className="text-2xl font-bold text-ink">{title}</h1>
      </div>
      <Card className="flex flex-col gap-4 p-5 sm:p-6">{children}</Card>
    </PageContainer>
  );
}

function MissingToken() {
  return <Alert>This link is incomplete. Open it again from the mail, or copy the whole address.</Alert>;
}

function Done({ children }: { children: ReactNode }) {
  return (
    <div className="flex items-start gap-3" role="status">
      <CheckCircle2Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-green-700" />
      <div className="flex flex-col gap-2 text-sm text-ink">{children}</div>
    </div>
  );
}

const feedLink = (subscription: Pick<EmailSubscription, "feedId" | "feedName">) => (
  <Link
    to="/feed/$feedId/content"
    params={{ feedId: subscription.feedId }}
    className="font-medium text-accent underline-offset-4 hover:underline"
  >
    {subscription.feedName}
  </Link>
);

export function ConfirmSubscriptionPage({ token }: { token: string | undefined }) {
  const confirm = useConfirmSubscription();
  return (
    <LinkPage title="Confirm your subscription">
      {!token ? (
        <MissingToken />
      ) : confirm.isSuccess ? (
        <Done>
          <p>
            You are subscribed to {feedLink(confirm.data)} (
            {EMAIL_MODE_LABELS[confirm.data.mode].toLowerCase()}).
          </p>
          <p className="text-muted">Every mail has a link to unsubscribe or change what you receive.</p>
          <Link
            to="/email/manage"
            search={{ token: confirm.data.manageToken }}
            className={`${buttonClasses("secondary", "sm")} self-start`}
          >
            Manage your subscription
          </Link>
        </Done>
      ) : (
        <>
          <p className="text-sm text-ink">Press the button to start receiving this feed by email.</p>
          {confirm.isError ? (
            <Alert>{serverMessage(confirm.error) ?? "The subscription could not be confirmed."}</Alert>
          ) : null}
          <Button className="self-start" loading={confirm.isPending} onClick={() => confirm.mutate(token)}>
            Confirm subscription
          </Button>
        </>
      )}
    </LinkPage>
  );
}

/** The subscription a manage or unsubscribe link names, with its loading and gone states. */
function WithSubscription({
  token,
  children,
}: {
  token: string;
  children: (subscription: EmailSubscription) => ReactNode;
}) {
  const subscription = useQuery(subscriptionQueryOptions(token));
  if (subscription.isPending)
    return <Skeleton className="h-24 w-full" aria-label="Loading your subscription" />;
  if (subscription.isError) {
    const gone = subscription.error instanceof ApiError && subscription.error.status === 404;
    return (
      <Alert>
        {gone
          ? serverMessage(subscription.error)
          : `Could not load your subscription: ${serverMessage(subscription.error)}`}
      </Alert>
    );
  }
  return children(subscription.data);
}

type Unsubscribing = ReturnType<typeof useUnsubscribe>;

function UnsubscribeButton({ unsubscribe }: { unsubscribe: Unsubscribing }) {
  return (
    <div className="flex flex-col gap-3">
      {unsubscribe.isError ? (
        <Alert>{serverMessage(unsubscribe.error) ?? "Could not unsubscribe."}</Alert>
      ) : null}
      <Button
        variant="secondary"
        className="self-start text-red-700 hover:bg-red-50"
        loading={unsubscribe.isPending}
        onClick={() => unsubscribe.mutate()}
      >
        Unsubscribe
      </Button>
    </div>
  );
}

/** A link's subscription, or — once its reader has unsubscribed — only that they have. */
function SubscriptionFlow({
  token,
  children,
}: {
  token: string;
  children: (subscription: EmailSubscription, unsubscribe: Unsubscribing) => ReactNode;
}) {
  const unsubscribe = useUnsubscribe(token);
  if (unsubscribe.isSuccess) {
    return (
      <Done>
        <p>
          You are unsubscribed{unsubscribe.data ? <> from {feedLink(unsubscribe.data)}</> : null}. Your
          address was deleted; no more mail will come from this feed.
        </p>
      </Done>
    );
  }
  return (
    <WithSubscription token={token}>{(subscription) => children(subscription, unsubscribe)}</WithSubscription>
  );
}

export function UnsubscribePage({ token }: { token: string | undefined }) {
  return (
    <LinkPage title="Unsubscribe">
      {!token ? (
        <MissingToken />
      ) : (
        <SubscriptionFlow token={token}>
          {(subscription, unsubscribe) => (
            <>
              <p className="text-sm text-ink">
                Stop receiving {feedLink(subscription)} by email? Your address is deleted at once.
              </p>
              <UnsubscribeButton unsubscribe={unsubscribe} />
            </>
          )}
        </SubscriptionFlow>
      )}
    </LinkPage>
  );
}

export function ManageSubscriptionPage({ token }: { token: string | undefined }) {
  return (
    <LinkPage title="Your subscription">
      {!token ? (
        <MissingToken />
      ) : (
        <SubscriptionFlow token={token}>
          {(subscription, unsubscribe) => (
            <ManageForm token={token} subscription={subscription} unsubscribe={unsubscribe} />
          )}
        </SubscriptionFlow>
      )}
    </LinkPage>
  );
}

function ManageForm({
  token,
  subscription,
  unsubscribe,
}: {
  token: string;
  subscription: EmailSubscription;
  unsubscribe: Unsubscribing;
}) {
  const change = useChangeSubscriptionMode(token);
  const [mode, setMode] = useState<EmailMode>(subscription.mode);
  const choices = subscription.modes.includes(subscription.mode)
    ? subscription.modes
    : [subscription.mode, ...subscription.modes];
  return (
    <>
      <p className="text-sm text-ink">
        You receive {feedLink(subscription)}:{" "}
        <strong>{EMAIL_MODE_LABELS[subscription.mode].toLowerCase()}</strong>.
      </p>
      {choices.length > 1 ? (
        <form
          className="flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            change.mutate(mode, {
              onSuccess: () => toast.success("Subscription updated"),
              onError: (error) =>
                toast.error("Could not update", { description: serverMessage(error) ?? undefined }),
            });
          }}
        >
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-ink">Send me</legend>
            {choices.map((choice) => (
              <label
                key={choice}
                className="flex cursor-pointer items-center gap-3 rounded-md border border-line px-3 py-2.5 text-sm has-[:checked]:border-accent has-[:checked]:bg-accent-soft/40"
              >
                <input
                  type="radio"
                  name="mode"
                  value={choice}
                  className="size-4 accent-accent"
                  checked={mode === choice}
                  onChange={() => setMode(choice)}
                />
                {EMAIL_MODE_LABELS[choice]}
              </label>
            ))}
          </fieldset>
          <Button
            type="submit"
            className="self-start"
            loading={change.isPending}
            disabled={mode === subscription.mode}
          >
            Save
          </Button>
        </form>
      ) : null}
      <div className="border-t border-line pt-4">
        <UnsubscribeButton unsubscribe={unsubscribe} />
      </div>
    </>
  );
}
