import { type Publication, type PublicationStatus, referenceNoun } from "@curate/core";
import { ExternalLinkIcon } from "lucide-react";
import { Badge, type BadgeTone } from "#web/components/ui/badge";
import { RelativeTime } from "#web/components/ui/relative-time";
import { formatDateTime } from "#web/lib/format";
import { PublishAgainAction } from "./PublishAgainAction";
import { RetractCopyAction } from "./RetractCopyAction";

const STATUS: Record<PublicationStatus, { label: string; tone: BadgeTone }> = {
  published: { label: "Published", tone: "green" },
  retracted: { label: "Retracted", tone: "neutral" },
  cannot_retract: { label: "Cannot retract", tone: "amber" },
};

/** A long id keeps both ends: "a1b2c3d4…e5f6". */
const shortId = (id: string) => (id.length > 28 ? `${id.slice(0, 12)}…${id.slice(-8)}` : id);

/** Only http(s) links are followed; anything else is shown as text. */
function safeUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}

interface PublicationListProps {
  items: readonly Publication[];
  /** Shows each entry's feed (the submission page spans feeds). */
  showFeed?: boolean;
  /**
   * Which published entries offer the moderator's actions: "Publish again as new post" on a channel's live entry,
   * "Retract this copy" on an older copy beside it. The ledger is only ever shown to moderators of its feeds; a
   * feed that retracted the post offers none (nothing of it is published again).
   */
  actions?: (publication: Publication) => boolean;
}

/**
 * Ledger entries: the channel, where it went (a link when there is one), when, and what became of it. An older
 * copy still published beside a newer one of the same channel (a duplicate, or the first post after "publish
 * again") says so: re-runs edit the newer one.
 */
export function PublicationList({ items, showFeed = false, actions }: PublicationListProps) {
  return (
    <ul className="divide-y divide-line rounded-md border border-line" data-testid="publication-list">
      {items.map((publication) => {
        const status = STATUS[publication.status];
        const url = safeUrl(publication.reference.url);
        const olderCopy = publication.status === "published" && publication.supersededBy !== null;
        return (
          <li
            key={publication.id}
            className="flex flex-col gap-1.5 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4"
            data-testid="publication"
            data-status={publication.status}
            data-older-copy={olderCopy || undefined}
          >
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="font-medium text-ink">{publication.channel ?? publication.pluginName}</span>
                {showFeed ? <span className="text-sm text-muted">#{publication.feedId}</span> : null}
                <Badge tone={status.tone}>{status.label}</Badge>
                {olderCopy ? <Badge tone="amber">Older copy</Badge> : null}
              </p>
              <p className="mt-0.5 truncate text-sm text-muted">
                {url ? (
                  <a
                    href={url}
                    target="_blank"
                    rel="noreferrer noopener"
                    className="mr-2 inline-flex items-center gap-1 text-accent hover:underline"
                  >
                    View {referenceNoun(publication.reference.kind) ?? "publication"}
                    <ExternalLinkIcon className="size-3.5 shrink-0" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                ) : null}
                {publication.reference.id ? (
                  <span className="font-mono text-xs" title={publication.reference.id}>
                    {shortId(publication.reference.id)}
                  </span>
                ) : url ? null : (
                  <span>{publication.reference.kind}</span>
                )}
              </p>
              {publication.retractionNote ? (
                <p className="mt-1 text-sm break-words text-amber-800">{publication.retractionNote}</p>
              ) : null}
              {olderCopy ? (
                <p className="mt-1 text-sm text-amber-800">
                  Also published later on this channel: re-runs edit the newer copy, this one stays as it is.
                </p>
              ) : null}
            </div>
            <div className="flex shrink-0 flex-col items-start gap-2 sm:items-end">
              <p className="shrink-0 text-sm text-muted">
                {publication.retractedAt ? (
                  <>
                    Retracted{" "}
                    <RelativeTime
                      date={publication.retractedAt}
                      title={formatDateTime(publication.retractedAt)}
                    />
                  </>
                ) : (
                  <>
                    Published{" "}
                    <RelativeTime
                      date={publication.publishedAt}
                      title={formatDateTime(publication.publishedAt)}
                    />
                  </>
                )}
              </p>
              {actions?.(publication) && publication.status === "published" ? (
                olderCopy ? (
                  <RetractCopyAction publication={publication} />
                ) : (
                  <PublishAgainAction publication={publication} />
                )
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
