import { z } from "zod";
import { feedIdSchema } from "./feeds.ts";

/**
 * Contracts of a feed's fediverse settings (issue 35, decision 0037). The ActivityPub and WebFinger endpoints
 * themselves speak their own formats and are not described here.
 */

export const fediverseFeedParamsSchema = z.object({ feedId: feedIdSchema });

/** GET /api/feeds/{feedId}/fediverse: whether the feed is an actor, its handle and its numbers (feed managers). */
export const fediverseStatusSchema = z.object({
  feedId: z.string(),
  /** The server offers the fediverse (its PUBLIC_URL is https). */
  available: z.boolean(),
  enabled: z.boolean(),
  /** `@feedid@host`, once the feed is an actor. */
  handle: z.string().nullable(),
  actorUrl: z.string().nullable(),
  followers: z.number().int(),
  published: z.number().int(),
  /** Deliveries waiting (or being retried), and given up. */
  deliveriesPending: z.number().int(),
  deliveriesFailed: z.number().int(),
});
export type FediverseStatus = z.infer<typeof fediverseStatusSchema>;

/** PUT /api/feeds/{feedId}/fediverse: turn the feed's actor on or off. */
export const fediverseUpdateSchema = z.object({
  enabled: z.boolean({ error: "Say whether the fediverse is on" }),
});
export type FediverseUpdate = z.infer<typeof fediverseUpdateSchema>;

export const FEDIVERSE_TEXTS = {
  unavailable:
    "The fediverse needs this server's PUBLIC_URL to be an https address: remote servers only follow actors there.",
  retired:
    "This feed id was a fediverse actor before and was deleted: its handle stays retired, so nobody inherits its followers.",
} as const;

/** The handle a feed has on this server: `@feedid@host`. */
export function fediverseHandle(feedId: string, publicUrl: string): string {
  return `@${feedId}@${new URL(publicUrl).host}`;
}
