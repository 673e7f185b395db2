import {
  hashtagsOf,
  type TestPost,
  type TestPostErrors,
  type TestPostInput,
  validateTestPost,
} from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { CheckCircle2Icon, FlaskConicalIcon, ShieldOffIcon } from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { PageContainer } from "#web/components/layout/PageContainer";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { Skeleton } from "#web/components/ui/skeleton";
import { Textarea } from "#web/components/ui/textarea";
import { useCurrentUser } from "#web/features/auth/api";
import { AuthorizeButton } from "#web/features/auth/components/AuthorizeButton";
import { LoginButton } from "#web/features/auth/components/LoginButton";
import { useAuthState } from "#web/features/auth/use-auth";
import { appConfigQueryOptions } from "#web/features/config/api";
import { useCreateTestPost } from "#web/features/curation/mutations";
import { feedsQueryOptions } from "#web/features/feeds/api";

/** /test: a developer form that posts a test tweet and runs intake on it, outside production only. */
export function TestPostPage() {
  const config = useQuery(appConfigQueryOptions());
  const user = useCurrentUser();
  const auth = useAuthState();

  let body: ReactNode;
  if (config.status === "pending" || user.status === "pending") {
    body = <Skeleton className="h-80 w-full" />;
  } else if (config.status === "error") {
    body = <Alert title="Could not load the server settings.">{config.error.message}</Alert>;
  } else if (!config.data.devTools) {
    body = (
      <Notice
        title="Test tweets are not available on this server."
        icon={<ShieldOffIcon aria-hidden="true" />}
      >
        This developer form only works against a development or test server that only its own machine can
        reach, where posts made here are read by the same intake as real mentions of @{config.data.botHandle}.
      </Notice>
    );
  } else if (!user.data && auth.status === "connected") {
    body = (
      <Notice title="Authorize the app to create test tweets.">
        <p>
          Your wallet is connected. Authorize the app so test tweets can be made on behalf of your account.
        </p>
        <AuthorizeButton className="mt-4" />
      </Notice>
    );
  } else if (!user.data) {
    body = (
      <Notice title="Sign in to create test tweets.">
        <p>Test tweets are created on behalf of a signed-in account.</p>
        <LoginButton className="mt-4" />
      </Notice>
    );
  } else {
    body = <TestPostForm botHandle={config.data.botHandle} />;
  }

  return (
    <PageContainer>
      <title>Create Test Tweet · Curate</title>
      <div className="mx-auto max-w-3xl">
        <div className="mb-6 flex items-start gap-3">
          <span className="mt-1 inline-flex size-10 shrink-0 items-center justify-center rounded-md bg-accent-soft text-accent">
            <FlaskConicalIcon className="size-5" aria-hidden="true" />
          </span>
          <div>
            <h1 className="text-3xl font-bold">Create Test Tweet</h1>
            <p className="mt-1 text-muted">
              Post as any username without the X API; intake reads the post at once, like a mention of the
              bot.
            </p>
          </div>
        </div>
        {body}
      </div>
    </PageContainer>
  );
}

function Notice({ title, icon, children }: { title: string; icon?: ReactNode; children: ReactNode }) {
  return (
    <Card role="status" className="flex flex-col items-start gap-2 px-6 py-8">
      <p className="flex items-center gap-2 font-semibold text-ink [&_svg]:size-5 [&_svg]:text-muted">
        {icon}
        {title}
      </p>
      <div className="text-sm text-muted">{children}</div>
    </Card>
  );
}

const EMPTY: TestPostInput = { text: "", username: "", inReplyToStatusId: "" };

function TestPostForm({ botHandle }: { botHandle: string }) {
  const [input, setInput] = useState<TestPostInput>(EMPTY);
  const [errors, setErrors] = useState<TestPostErrors>({});
  const create = useCreateTestPost();
  const command = `!submit @${botHandle} #`;

  const update = (patch: Partial<TestPostInput>) => {
    setInput((previous) => ({ ...previous, ...patch }));
    // A field's error goes away as soon as it is edited; the rest stay until the next submit.
    setErrors((previous) => ({
      ...previous,
      ...Object.fromEntries(Object.keys(patch).map((key) => [key, undefined])),
    }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateTestPost(input);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    const reply = input.inReplyToStatusId?.trim();
    create.mutate({
      text: input.text.trim(),
      username: input.username.trim(),
      inReplyToStatusId: reply || undefined,
    });
  };

  return (
    <div className="flex flex-col gap-6">
      <Card className="p-5 sm:p-6">
        <form noValidate onSubmit={submit} className="flex flex-col gap-5" aria-label="Create Test Tweet">
          <FormField
            label="Tweet text"
            error={errors.text}
            hint={
              <>
                A post containing{" "}
                <code className="rounded bg-zinc-100 px-1 py-0.5 text-ink">{command}feedId</code> submits
                itself to that feed (or, as a reply, the post it replies to); the rest of the text is the
                curator's note.
              </>
            }
          >
            <Textarea
              value={input.text}
              rows={4}
              onChange={(event) => update({ text: event.target.value })}
              placeholder={`${command}feedId Worth a read`}
            />
          </FormField>
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField label="Username" error={errors.username}>
              <Input
                value={input.username}
                onChange={(event) => update({ username: event.target.value })}
                placeholder="curator_jane"
                autoComplete="off"
              />
            </FormField>
            <FormField label="Reply to post id (optional)" error={errors.inReplyToStatusId}>
              <Input
                value={input.inReplyToStatusId}
                inputMode="numeric"
                onChange={(event) => update({ inReplyToStatusId: event.target.value })}
                placeholder="Empty for a new post"
              />
            </FormField>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" loading={create.isPending}>
              {create.isPending ? "Creating..." : "Create Tweet"}
            </Button>
            {create.isError ? <Alert>{create.error.message}</Alert> : null}
          </div>
        </form>
      </Card>
      {create.data ? (
        <TestPostResult tweet={create.data} onReply={(id) => update({ inReplyToStatusId: id })} />
      ) : null}
    </div>
  );
}

function plural(count: number, word: string) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function TestPostResult({ tweet, onReply }: { tweet: TestPost; onReply: (id: string) => void }) {
  const { data: feeds } = useQuery(feedsQueryOptions());
  const known = new Set(feeds?.map((feed) => feed.id));
  const named = hashtagsOf(tweet.text).filter((tag) => known.has(tag));
  const { read, submitted, moderated } = tweet.intake;

  return (
    <Card role="status" className="flex flex-col gap-4 p-5 sm:p-6" data-testid="test-tweet-result">
      <p className="flex items-center gap-2 font-semibold text-ink">
        <CheckCircle2Icon className="size-5 text-emerald-600" aria-hidden="true" />
        Created post
        <code className="rounded bg-zinc-100 px-1.5 py-0.5 text-sm" data-testid="test-tweet-id">
          {tweet.id}
        </code>
      </p>
      <p className="text-sm break-words whitespace-pre-line text-muted">
        @{tweet.username}: {tweet.text}
      </p>
      <dl className="grid grid-cols-3 gap-3 text-center" data-testid="test-tweet-intake">
        {(
          [
            ["Read", read],
            ["Submitted", submitted],
            ["Moderated", moderated],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-md border border-line bg-canvas px-3 py-2">
            <dt className="text-xs text-muted">{label}</dt>
            <dd className="font-display text-xl font-semibold text-ink">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-muted">
        Intake read {plural(read, "post")}, made {plural(submitted, "submission")} and{" "}
        {plural(moderated, "moderation decision")}.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        {named.map((feedId) => (
          <Button key={feedId} asChild size="sm" variant="secondary">
            <Link to="/feed/$feedId/curation" params={{ feedId }}>
              View #{feedId} curation
            </Link>
          </Button>
        ))}
        <Button asChild size="sm" variant="ghost">
          <Link to="/">View on Explore</Link>
        </Button>
        <Button size="sm" variant="ghost" onClick={() => onReply(tweet.id)}>
          Reply to this post
        </Button>
      </div>
    </Card>
  );
}
