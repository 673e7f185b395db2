import { isPlatform } from "@curate/core";
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { ExternalLinkIcon } from "lucide-react";
import { useLayoutEffect, useRef, useState } from "react";
import { Badge } from "#web/components/ui/badge";
import { Card } from "#web/components/ui/card";
import { PlatformIcon } from "#web/components/ui/platform-icon";
import type { RssItem } from "#web/features/feeds/rss";
import { formatDatePattern } from "#web/lib/format";

/** Rows are estimated at 150 px and five are kept ready beyond each edge of the screen. */
export const CONTENT_ROW_ESTIMATE = 150;
export const CONTENT_OVERSCAN = 5;

interface ContentListProps {
  items: readonly RssItem[];
  onCategory: (category: string) => void;
}

/**
 * The items in one long list that scrolls with the page: only the rows near the screen are in the document,
 * each measured once drawn, so a feed of hundreds of items stays light.
 */
export function ContentList({ items, onCategory }: ContentListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // The list starts below the header, tabs and filters; the chips above it come and go, so measure every render.
  useLayoutEffect(() => {
    const top = (listRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
    if (Math.abs(top - scrollMargin) > 0.5) setScrollMargin(top);
  });
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => CONTENT_ROW_ESTIMATE,
    overscan: CONTENT_OVERSCAN,
    scrollMargin,
    getItemKey: (index) => items[index]?.guid ?? index,
  });

  return (
    <ul
      ref={listRef}
      aria-label="Recent content items"
      className="relative"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => {
        const item = items[row.index];
        if (!item) return null;
        return (
          <li
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="absolute top-0 left-0 w-full pb-3"
            style={{ transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
          >
            <ContentRow item={item} onCategory={onCategory} />
          </li>
        );
      })}
    </ul>
  );
}

function ContentRow({ item, onCategory }: { item: RssItem; onCategory: (category: string) => void }) {
  const [imageFailed, setImageFailed] = useState(false);
  const date = item.pubDate ? formatDatePattern(item.pubDate, "MMM d, yyyy") : "";
  return (
    <Card className="flex gap-4 p-4" data-testid="content-item">
      {item.image && !imageFailed ? (
        <img
          src={item.image}
          alt=""
          loading="lazy"
          referrerPolicy="no-referrer"
          onError={() => setImageFailed(true)}
          className="size-16 shrink-0 rounded-md border border-line object-cover sm:size-24"
        />
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap items-center gap-1.5">
          <Badge>
            {isPlatform(item.platform) ? (
              <PlatformIcon platform={item.platform} decorative className="size-3" />
            ) : null}
            {item.platform}
          </Badge>
          {item.categories.map((category) => (
            <button
              key={category}
              type="button"
              title={category}
              onClick={() => onCategory(category)}
              className="inline-block max-w-48 truncate rounded-full border border-indigo-200 bg-accent-soft px-2.5 py-0.5 text-xs font-medium text-accent-strong hover:border-accent"
            >
              {category}
            </button>
          ))}
        </div>
        {item.link ? (
          <a
            href={item.link}
            target="_blank"
            rel="noopener noreferrer"
            className="group inline-flex items-start gap-1 font-semibold break-words text-ink hover:text-accent"
          >
            <span className="line-clamp-2 group-hover:underline">{item.title || item.link}</span>
            <ExternalLinkIcon className="mt-1 size-3.5 shrink-0" aria-hidden="true" />
          </a>
        ) : (
          <p className="line-clamp-2 font-semibold break-words text-ink">{item.title}</p>
        )}
        {item.description ? (
          <p className="line-clamp-3 text-sm break-words text-muted">{item.description}</p>
        ) : null}
        {date ? (
          <time className="text-xs text-muted" dateTime={new Date(item.pubDate ?? "").toISOString()}>
            {date}
          </time>
        ) : null}
      </div>
    </Card>
  );
}
