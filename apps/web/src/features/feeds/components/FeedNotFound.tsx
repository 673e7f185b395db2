import { Link } from "@tanstack/react-router";
import { CompassIcon } from "lucide-react";
import { buttonClasses } from "#web/components/ui/button";

/**
 * The one answer for a feed that does not exist (or is the hidden catch-all feed): no tabs, no second error,
 * and a way on to the feeds that do exist.
 */
export function FeedNotFound({ feedId }: { feedId: string }) {
  return (
    <section
      className="flex flex-col items-center py-20 text-center"
      aria-labelledby="feed-not-found-title"
      data-testid="feed-not-found"
    >
      <title>Feed not found · Curate</title>
      <p className="font-display text-6xl font-bold text-accent">404</p>
      <h1 id="feed-not-found-title" className="mt-4 text-2xl font-bold sm:text-3xl">
        Feed not found.
      </h1>
      <p className="mt-3 max-w-md break-words text-muted">
        There is no feed with the hashtag #{feedId}. Check the address, or explore the feeds that exist.
      </p>
      <Link to="/" className={`${buttonClasses("primary", "lg")} mt-8`}>
        <CompassIcon aria-hidden="true" />
        Explore feeds
      </Link>
    </section>
  );
}
