import { type AppConfig, type FeedSource, PLATFORM_LABELS } from "@curate/core";
import { ExternalLinkIcon } from "lucide-react";
import { Badge, badgeClasses } from "#web/components/ui/badge";
import { PlatformIcon } from "#web/components/ui/platform-icon";

interface FeedOriginsProps {
  feedId: string;
  /** What the feed reads by itself (its configured sources). */
  sources: readonly FeedSource[];
  /** The networks the bot listens on: people submit to the feed by mentioning it there. */
  networks: AppConfig["networks"];
}

/**
 * Where a feed's posts come from, as configured: "Curating from" its own sources (a network search, a blog's site)
 * "and mentions on" each network whose bot takes `#feed` submissions. Nothing is said when neither exists.
 */
export function FeedOrigins({ feedId, sources, networks }: FeedOriginsProps) {
  if (!sources.length && !networks.length) return null;
  return (
    <p className="flex flex-wrap items-center gap-2" data-testid="feed-origins">
      <span className="text-muted">Curating from</span>{" "}
      {sources.map((source) => (
        <SourceBadge key={source.label} source={source} />
      ))}
      {networks.length ? (
        <>
          {" "}
          <span className="text-muted">{sources.length ? "and mentions on" : "mentions on"}</span>{" "}
          {networks.map(({ platform, handle }) => (
            <Badge
              key={platform}
              data-testid="feed-submit-network"
              title={`Mention ${handle ? `@${handle}` : "the bot"} with #${feedId} on ${PLATFORM_LABELS[platform]} to submit a post`}
            >
              <PlatformIcon platform={platform} decorative className="size-3" />
              {PLATFORM_LABELS[platform]}
            </Badge>
          ))}
        </>
      ) : null}
    </p>
  );
}

/** A source: its network's mark and its name; a blog's site links there. */
function SourceBadge({ source }: { source: FeedSource }) {
  const mark = source.network ? (
    <PlatformIcon platform={source.network} decorative className="size-3" />
  ) : null;
  if (!source.href) {
    return (
      <Badge tone="accent" data-testid="feed-source">
        {mark}
        {source.label}
      </Badge>
    );
  }
  return (
    <a
      href={source.href}
      target="_blank"
      rel="noreferrer"
      className={`${badgeClasses("accent")} hover:border-accent`}
      data-testid="feed-source"
    >
      {mark}
      {source.label}
      <ExternalLinkIcon className="size-3" aria-hidden="true" />
    </a>
  );
}
