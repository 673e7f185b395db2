import { BUILTIN_PLUGIN_PREFIX, builtinPluginName, feedDestinations, findBuiltinPlugin } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeftIcon, CheckIcon } from "lucide-react";
import { lazy, type ReactNode, Suspense } from "react";
import { Alert } from "#web/components/ui/alert";
import { Badge } from "#web/components/ui/badge";
import { Button, buttonClasses } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { SectionHeader } from "#web/components/ui/section-header";
import { toast } from "#web/components/ui/toast";
import { appConfigQueryOptions } from "#web/features/config/api";
import { feedDraftStore, useFeedDraft } from "#web/features/create-feed/draft-store";
import { hasErrors, validateBasicInformation } from "#web/features/create-feed/validation";
import { leaveOutStep, restoreStep, wizardFeedConfig } from "#web/features/create-feed/wizard-config";
import { FeedImage } from "#web/features/feeds/components/FeedImage";
import { FieldIssueList } from "#web/features/feeds/components/FieldIssueList";
import { fieldIssues, useCreateFeed } from "#web/features/feeds/mutations";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-muted">{label}</dt>
      <dd className="min-w-0 text-sm text-ink [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

// The check reads the built-in plugins' config schemas (zod), which the rest of the wizard does without; the
// warnings also wait for GET /api/config, so the step shows first and they follow.
const PlaceholderWarnings = lazy(() =>
  import("#web/features/feeds/components/PlaceholderWarnings").then((module) => ({
    default: module.PlaceholderWarnings,
  })),
);

const pluginLabel = (plugin: string) => builtinPluginName(plugin) ?? plugin;

/** Step 3: everything the feed will be created with, then Create Feed. */
export function ReviewStep() {
  const draft = useFeedDraft();
  const navigate = useNavigate();
  const createFeed = useCreateFeed();
  // The deployment's own address, not the browser's: a feed created through a proxy or a second host name still
  // publishes to the address its readers use.
  const { data: appConfig } = useQuery(appConfigQueryOptions());
  const config = wizardFeedConfig(draft, appConfig?.publicUrl ?? window.location.origin);
  const stream = config.outputs?.stream;
  // Each channel by where its posts can be read: the feed's own RSS file (`…/rss/<id>/rss.xml`), a t.me link.
  const destinations = feedDestinations(stream?.distribute, config.id).map((destination, index) => ({
    ...destination,
    detail: String(stream?.distribute?.[index]?.config?.chatId ?? ""),
  }));
  const incomplete = hasErrors(validateBasicInformation(draft));
  const issues = fieldIssues(createFeed.error);

  function create() {
    createFeed.mutate(config, {
      onSuccess: (feed) => {
        toast.success("Feed Created Successfully!", {
          description: `Your feed "${feed.name}" has been created.`,
        });
        feedDraftStore.reset();
        void navigate({ to: "/feed/$feedId", params: { feedId: feed.id } });
      },
      onError: () =>
        toast.error("Error Creating Feed", {
          description: "There was an error creating your feed. Please try again.",
        }),
    });
  }

  return (
    <div className="flex flex-col gap-6">
      <SectionHeader title="Feed Review" />
      <Card className="p-5 sm:p-6">
        <div className="flex items-start gap-4 border-b border-line pb-5">
          <FeedImage name={config.name || config.id || "?"} src={config.image || null} className="size-16" />
          <div className="min-w-0">
            <p className="font-display text-xl font-bold break-words">{config.name || "Untitled feed"}</p>
            <p className="text-sm font-medium break-all text-accent">#{config.id}</p>
          </div>
        </div>
        <dl className="divide-y divide-line">
          <Row label="Description">
            <p className="whitespace-pre-line [overflow-wrap:anywhere]">{config.description}</p>
          </Row>
          <Row label="Approvers">
            {draft.approvers.length ? (
              <ul className="flex flex-wrap gap-1.5">
                {draft.approvers.map((approver) => (
                  <li key={approver.handle}>
                    <Badge>
                      @{approver.handle} · {approver.platform}
                    </Badge>
                  </li>
                ))}
              </ul>
            ) : (
              <span className="text-muted">None yet</span>
            )}
          </Row>
          <Row label="Processing">
            <ol className="flex flex-wrap gap-1.5">
              {stream?.transform?.map((step) => (
                <li key={step.plugin}>
                  <Badge tone="accent">{pluginLabel(step.plugin)}</Badge>
                </li>
              ))}
            </ol>
            {draft.leftOut.length ? (
              <ul className="mt-2 flex flex-col gap-1">
                {draft.leftOut.map((plugin) => (
                  <li key={plugin} className="flex flex-wrap items-center gap-x-2 text-muted">
                    Left out: {findBuiltinPlugin(`${BUILTIN_PLUGIN_PREFIX}${plugin}`)?.label ?? plugin}
                    <Button
                      variant="link"
                      size="sm"
                      className="h-auto px-0"
                      onClick={() => feedDraftStore.update((current) => restoreStep(current, plugin))}
                    >
                      Add it back
                    </Button>
                  </li>
                ))}
              </ul>
            ) : null}
          </Row>
          <Row label="Posting to">
            <ul className="flex flex-col gap-1.5" data-testid="review-destinations">
              {destinations.map((destination, index) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: a distributor's place in the list is its identity
                  key={index}
                  className="flex min-w-0 flex-wrap items-center gap-2"
                >
                  <Badge tone="accent">{destination.label}</Badge>
                  {destination.href ? (
                    <a
                      href={destination.href}
                      target="_blank"
                      rel="noreferrer noopener"
                      className="min-w-0 text-accent [overflow-wrap:anywhere] hover:underline"
                    >
                      {destination.href}
                    </a>
                  ) : (
                    <span className="text-muted">{destination.detail}</span>
                  )}
                </li>
              ))}
            </ul>
          </Row>
        </dl>
      </Card>

      <Suspense fallback={null}>
        <PlaceholderWarnings
          config={config}
          onRemoveStep={(placeholder) =>
            feedDraftStore.update((current) => leaveOutStep(current, placeholder.plugin))
          }
        />
      </Suspense>

      {incomplete ? (
        // Announced as an alert: it is why Create Feed cannot be pressed.
        <Alert variant="warning" role="alert">
          The basic information is incomplete.{" "}
          <Link to="/create/feed" className="font-medium underline">
            Go back to Basic Information
          </Link>{" "}
          to finish it.
        </Alert>
      ) : null}
      {createFeed.error ? (
        <Alert title={createFeed.error.message}>
          {issues.length ? <FieldIssueList issues={issues} /> : null}
        </Alert>
      ) : null}

      <div className="flex justify-between gap-3">
        <Link to="/create/feed/settings" className={buttonClasses("secondary")}>
          <ArrowLeftIcon aria-hidden="true" />
          Previous
        </Link>
        <Button onClick={create} disabled={incomplete || !appConfig} loading={createFeed.isPending}>
          <CheckIcon aria-hidden="true" />
          Create Feed
        </Button>
      </div>
    </div>
  );
}
