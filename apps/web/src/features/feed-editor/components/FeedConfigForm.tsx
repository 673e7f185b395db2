import {
  ACKNOWLEDGEMENT_NETWORKS,
  acknowledgementText,
  builtinPluginId,
  MIN_POLLING_INTERVAL_MS,
  MODERATED_PLATFORMS,
  type ModeratedPlatform,
  PLATFORM_LABELS,
} from "@curate/core";
import { PlusIcon } from "lucide-react";
import { Fragment, type ReactNode } from "react";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { Textarea } from "#web/components/ui/textarea";
import type { FeedForm, FormErrors, SourceForm } from "#web/features/feed-editor/form-model";
import type { FieldIssue } from "#web/features/feeds/mutations";
import { Checkbox, RemoveButton, removeAt, replaceAt, Section, StepList } from "./form-parts";
import { GovernanceSection } from "./GovernanceSection";
import { RecapsSection } from "./RecapsSection";

/** The spec names X "Twitter" in these settings; the other networks by their own names. */
const NETWORK_NAMES: Record<ModeratedPlatform, string> = { ...PLATFORM_LABELS, twitter: "Twitter" };

/** How a handle is written on each network. */
const HANDLE_HINTS: Record<ModeratedPlatform, string> = {
  twitter: "e.g. alice, bob",
  bluesky: "e.g. alice.bsky.social",
  mastodon: "e.g. alice@fosstodon.org",
  telegram: "Usernames, e.g. alice",
};

type Update = (change: (form: FeedForm) => FeedForm) => void;

interface FeedConfigFormProps {
  feedId: string;
  form: FeedForm;
  errors: FormErrors;
  onChange: Update;
  /** Changes whenever the form is reloaded from the config, so the committed-on-blur fields start over. */
  generation: number;
  /** What the schema check or the server refused at the last save (recap fields show theirs in place). */
  issues?: FieldIssue[];
  /** Shown under the approver lists: approver rights the trust policy offered, for the owners to answer. */
  approverOffers?: ReactNode;
}

/**
 * The sections of the edit form: General, Content Sources, Output Settings, Moderation Settings,
 * Quorum and Trust (issue 32), Acknowledgements (the bot's replies, issue 18) and Recaps (scheduled digests).
 */
export function FeedConfigForm({
  feedId,
  form,
  errors,
  onChange,
  generation,
  issues = [],
  approverOffers,
}: FeedConfigFormProps) {
  const set = <K extends keyof FeedForm>(key: K, value: FeedForm[K]) =>
    onChange((current) => ({ ...current, [key]: value }));
  const setSource = (index: number, source: SourceForm) =>
    onChange((current) => ({ ...current, sources: replaceAt(current.sources, index, source) }));

  return (
    <div className="flex flex-col gap-8">
      <Section title="General">
        <div className="grid gap-4 md:grid-cols-2">
          <FormField label="Feed Name" error={errors.name}>
            <Input value={form.name} onChange={(event) => set("name", event.target.value)} />
          </FormField>
          <FormField
            label="Polling Interval (ms)"
            hint={`minimum: ${MIN_POLLING_INTERVAL_MS}ms`}
            error={errors.pollingIntervalMs}
          >
            <Input
              type="number"
              inputMode="numeric"
              min={MIN_POLLING_INTERVAL_MS}
              step={1000}
              value={form.pollingIntervalMs}
              onChange={(event) => set("pollingIntervalMs", event.target.value)}
            />
          </FormField>
        </div>
        <FormField label="Description" error={errors.description}>
          <Textarea value={form.description} onChange={(event) => set("description", event.target.value)} />
        </FormField>
        <Checkbox label="Enable Feed" checked={form.enabled} onChange={(value) => set("enabled", value)} />
      </Section>

      <Section
        title="Content Sources"
        action={
          <Button
            variant="secondary"
            size="sm"
            onClick={() => set("sources", [...form.sources, { base: {}, plugin: "", search: [] }])}
          >
            <PlusIcon aria-hidden="true" />
            Add Source
          </Button>
        }
      >
        {form.sources.length === 0 ? <p className="text-sm text-muted">No content sources yet.</p> : null}
        {form.sources.map((source, sourceIndex) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: sources have no id; their position is their identity
            key={`${generation}-${sourceIndex}`}
            className="flex flex-col gap-3 rounded-md border border-line bg-canvas p-4"
          >
            <div className="flex items-end gap-2">
              <FormField label={`Source ${sourceIndex + 1} plugin`} className="flex-1">
                <Input
                  value={source.plugin}
                  placeholder={builtinPluginId("x-source")}
                  onChange={(event) => setSource(sourceIndex, { ...source, plugin: event.target.value })}
                />
              </FormField>
              <RemoveButton
                label={`Remove source ${sourceIndex + 1}`}
                onClick={() => set("sources", removeAt(form.sources, sourceIndex))}
              />
            </div>
            <div className="flex flex-col gap-2">
              <p className="text-xs font-medium text-muted">Search queries</p>
              {source.search.map((search, searchIndex) => (
                <div
                  // biome-ignore lint/suspicious/noArrayIndexKey: searches are edited in place by position
                  key={searchIndex}
                  // Top-aligned: a query's message below its field must not lift the row's other fields.
                  className="grid items-start gap-2 sm:grid-cols-[12rem_1fr_auto]"
                >
                  <FormField label="Type">
                    <Input
                      value={search.type}
                      placeholder="twitter-mention"
                      onChange={(event) =>
                        setSource(sourceIndex, {
                          ...source,
                          search: replaceAt(source.search, searchIndex, {
                            ...search,
                            type: event.target.value,
                          }),
                        })
                      }
                    />
                  </FormField>
                  <FormField label="Query" error={errors.searches?.[`${sourceIndex}.${searchIndex}`]}>
                    <Input
                      value={search.query}
                      placeholder="@curatedotfun #feedid"
                      onChange={(event) =>
                        setSource(sourceIndex, {
                          ...source,
                          search: replaceAt(source.search, searchIndex, {
                            ...search,
                            query: event.target.value,
                          }),
                        })
                      }
                    />
                  </FormField>
                  {/* Level with the fields: below their labels, centred on their height. */}
                  <div className="sm:pt-[1.875rem]">
                    <RemoveButton
                      label={`Remove search ${searchIndex + 1} of source ${sourceIndex + 1}`}
                      onClick={() =>
                        setSource(sourceIndex, { ...source, search: removeAt(source.search, searchIndex) })
                      }
                    />
                  </div>
                </div>
              ))}
              <Button
                variant="link"
                size="sm"
                className="w-fit px-0"
                onClick={() =>
                  setSource(sourceIndex, {
                    ...source,
                    search: [...source.search, { base: {}, type: "", query: "" }],
                  })
                }
              >
                <PlusIcon aria-hidden="true" />
                Add Search
              </Button>
            </div>
          </div>
        ))}
      </Section>

      <Section title="Output Settings">
        <Checkbox
          label="Enable Stream Output"
          checked={form.streamEnabled}
          onChange={(value) => set("streamEnabled", value)}
        />
        <StepList
          title="Stream Transforms"
          noun="Transform"
          steps={form.transforms}
          generation={generation}
          onChange={(steps) => set("transforms", steps)}
        />
        <StepList
          title="Stream Distributors"
          noun="Distributor"
          steps={form.distributors}
          generation={generation}
          onChange={(steps) => set("distributors", steps)}
        />
      </Section>

      <Section title="Moderation Settings">
        <p className="text-sm text-muted">
          Approvers decide by replying <code>!approve</code> or <code>!reject</code> on their own network; a
          blacklisted handle's submissions are ignored. Comma-separated handles on each network.
        </p>
        <div className="grid gap-4 md:grid-cols-2">
          {MODERATED_PLATFORMS.map((platform) => (
            <Fragment key={platform}>
              <FormField label={`${NETWORK_NAMES[platform]} Approvers`} hint={HANDLE_HINTS[platform]}>
                <Input
                  value={form.approvers[platform]}
                  onChange={(event) =>
                    set("approvers", { ...form.approvers, [platform]: event.target.value })
                  }
                />
              </FormField>
              <FormField label={`${NETWORK_NAMES[platform]} Blacklist`}>
                <Input
                  value={form.blacklist[platform]}
                  onChange={(event) =>
                    set("blacklist", { ...form.blacklist, [platform]: event.target.value })
                  }
                />
              </FormField>
            </Fragment>
          ))}
        </div>
        {approverOffers}
        <FormField
          label="Undo Window (seconds)"
          hint="How long an approval waits before it is published, so that a mistaken one can be undone. Empty or 0: publish at once."
          error={errors.undoWindowSeconds}
        >
          <Input
            inputMode="numeric"
            value={form.undoWindowSeconds}
            placeholder="0"
            onChange={(event) => set("undoWindowSeconds", event.target.value)}
          />
        </FormField>
        <FormField
          label="Decide Within (hours)"
          hint="The queue's service level: approvers who opted in are reminded when a post waits longer. Empty: none."
          error={errors.decideWithinHours}
        >
          <Input
            inputMode="numeric"
            value={form.decideWithinHours}
            placeholder="e.g. 6"
            onChange={(event) => set("decideWithinHours", event.target.value)}
          />
        </FormField>
        <Checkbox
          label="Name who rejected or retracted a post in the public moderation log"
          checked={form.nameRejectersInLog}
          onChange={(value) => set("nameRejectersInLog", value)}
        />
      </Section>

      <GovernanceSection
        form={form.governance}
        errors={errors.governance}
        onChange={(governance) => set("governance", governance)}
      />

      <Section title="Acknowledgements">
        <p className="text-sm text-muted">
          The bot replies under the curator's post on the network it came from: "
          {acknowledgementText("submitted", feedId)}" when a post is submitted, "
          {acknowledgementText("approved", feedId)}" when it is approved. Replies are spaced per network and
          capped per feed each hour; each one is a processing job, shown with the post's other jobs, where a
          failed reply can be retried.
        </p>
        <div className="flex flex-wrap gap-x-6 gap-y-3">
          {ACKNOWLEDGEMENT_NETWORKS.map((network) => (
            <Checkbox
              key={network}
              label={`Reply on ${PLATFORM_LABELS[network]}`}
              checked={form.acknowledgements.networks[network]}
              onChange={(value) =>
                set("acknowledgements", {
                  ...form.acknowledgements,
                  networks: { ...form.acknowledgements.networks, [network]: value },
                })
              }
            />
          ))}
        </div>
        <div className="flex flex-wrap gap-x-6 gap-y-3">
          <Checkbox
            label="When a post is submitted"
            checked={form.acknowledgements.onSubmit}
            onChange={(value) => set("acknowledgements", { ...form.acknowledgements, onSubmit: value })}
          />
          <Checkbox
            label="When a post is approved"
            checked={form.acknowledgements.onApprove}
            onChange={(value) => set("acknowledgements", { ...form.acknowledgements, onApprove: value })}
          />
        </div>
      </Section>

      <RecapsSection
        recaps={form.recaps}
        errors={errors.recaps}
        issues={issues}
        generation={generation}
        onChange={(change) => onChange((current) => ({ ...current, recaps: change(current.recaps) }))}
      />
    </div>
  );
}
