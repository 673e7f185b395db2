import { useQuery } from "@tanstack/react-query";
import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import { useState } from "react";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { newestItems, rssQueryOptions } from "#web/features/feeds/rss";
import { formatDatePattern } from "#web/lib/format";

export const CAROUSEL_ITEMS = 9;
export const CAROUSEL_PAGE_SIZE = 3;

const formatDate = (value: string | null) => (value ? formatDatePattern(value, "MMM d, yyyy") || null : null);

/** The feed's newest published items, three at a time; not shown at all when the RSS file cannot be read. */
export function RecentContentCarousel({ feedId }: { feedId: string }) {
  const { data, isError } = useQuery({
    ...rssQueryOptions(feedId),
    select: (items) => newestItems(items, CAROUSEL_ITEMS),
  });
  const [page, setPage] = useState(0);
  // A failed refetch keeps the last items in the cache; the carousel still steps aside, as on any RSS error.
  if (isError || !data || data.length === 0) return null;

  const pages = Math.ceil(data.length / CAROUSEL_PAGE_SIZE);
  const current = page % pages;
  const shown = data.slice(current * CAROUSEL_PAGE_SIZE, (current + 1) * CAROUSEL_PAGE_SIZE);
  const step = (delta: number) => setPage((current + delta + pages) % pages);

  return (
    <section
      aria-labelledby="recent-content-title"
      className="flex flex-col gap-3"
      data-testid="recent-content"
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id="recent-content-title" className="text-lg font-semibold">
          Recent Content
        </h2>
        {pages > 1 ? (
          <div className="flex items-center gap-2">
            <span className="text-xs text-muted tabular-nums" aria-live="polite">
              {current + 1} / {pages}
            </span>
            <Button
              variant="secondary"
              size="icon"
              className="size-8"
              aria-label="Previous items"
              onClick={() => step(-1)}
            >
              <ChevronLeftIcon aria-hidden="true" />
            </Button>
            <Button
              variant="secondary"
              size="icon"
              className="size-8"
              aria-label="Next items"
              onClick={() => step(1)}
            >
              <ChevronRightIcon aria-hidden="true" />
            </Button>
          </div>
        ) : null}
      </div>
      {/* On phones the page's three cards scroll sideways instead of pushing the tabs a screen down. */}
      <ul className="-mx-4 flex scroll-px-4 snap-x snap-mandatory gap-3 overflow-x-auto px-4 pb-1 md:mx-0 md:grid md:grid-cols-3 md:overflow-visible md:px-0 md:pb-0">
        {shown.map((item) => (
          <li key={item.guid} className="w-[82%] shrink-0 snap-start md:w-auto">
            <Card className="flex h-full flex-col gap-2 p-4">
              <div className="flex flex-wrap gap-1.5">
                <Badge>{item.platform}</Badge>
                {item.categories.slice(0, 2).map((category) => (
                  <Badge key={category} tone="accent">
                    {category}
                  </Badge>
                ))}
              </div>
              {item.link ? (
                <a
                  href={item.link}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="line-clamp-2 font-medium text-ink hover:text-accent hover:underline"
                >
                  {item.title || item.link}
                </a>
              ) : (
                <p className="line-clamp-2 font-medium text-ink">{item.title}</p>
              )}
              <p className="line-clamp-3 text-sm text-muted">{item.description}</p>
              {formatDate(item.pubDate) ? (
                <p className="mt-auto text-xs text-muted">{formatDate(item.pubDate)}</p>
              ) : null}
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
