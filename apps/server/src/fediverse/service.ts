import { FEDIVERSE_TEXTS, type FediverseStatus, fediverseHandle } from "@curate/core";
import { exportJwk, generateCryptoKeyPair } from "@fedify/fedify";
import { Delete } from "@fedify/vocab";
import { and, count, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import {
  fediverseActors,
  fediverseDeliveries,
  fediverseFollowers,
  fediverseNotes,
  feeds,
  type User,
} from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { assertCanManageFeed } from "../feeds/permissions.ts";
import { followerInboxes, queueActivity } from "./delivery.ts";
import type { Fediverse } from "./federation.ts";

async function assertFeedExists(db: Database, feedId: string) {
  const [feed] = await db.select({ id: feeds.id }).from(feeds).where(eq(feeds.id, feedId));
  if (!feed) throw AppError.notFound(`Feed "${feedId}" not found.`);
}

/** The feed's fediverse settings and numbers, for its managers. */
export async function fediverseStatus(
  db: Database,
  env: AppEnv,
  user: User,
  feedId: string,
): Promise<FediverseStatus> {
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  await assertFeedExists(db, id);
  const [actor] = await db
    .select({ enabled: fediverseActors.enabled, deletedAt: fediverseActors.deletedAt })
    .from(fediverseActors)
    .where(eq(fediverseActors.feedId, id));
  const live = Boolean(actor && !actor.deletedAt);
  const enabled = Boolean(live && actor?.enabled && env.FEDIVERSE.available);
  const [followers] = live
    ? await db.select({ n: count() }).from(fediverseFollowers).where(eq(fediverseFollowers.feedId, id))
    : [{ n: 0 }];
  const [published] = live
    ? await db
        .select({ n: count() })
        .from(fediverseNotes)
        .where(and(eq(fediverseNotes.feedId, id), isNull(fediverseNotes.deletedAt)))
    : [{ n: 0 }];
  const [deliveries] = live
    ? await db
        .select({
          pending: sql<number>`count(*) filter (where ${fediverseDeliveries.status} = 'pending')::int`,
          failed: sql<number>`count(*) filter (where ${fediverseDeliveries.status} = 'failed')::int`,
        })
        .from(fediverseDeliveries)
        .where(eq(fediverseDeliveries.feedId, id))
    : [{ pending: 0, failed: 0 }];
  return {
    feedId: id,
    available: env.FEDIVERSE.available,
    enabled,
    handle: enabled ? fediverseHandle(id, env.PUBLIC_URL) : null,
    actorUrl: enabled ? `${env.PUBLIC_URL}/ap/feeds/${id}` : null,
    followers: followers.n,
    published: published.n,
    deliveriesPending: deliveries.pending,
    deliveriesFailed: deliveries.failed,
  };
}

/**
 * Turns the feed's actor on (its key pair made the first time) or off (it answers 404 and accepts no follows; its
 * followers are kept for when it is turned on again). Only with an https PUBLIC_URL; a retired id stays retired.
 */
export async function setFediverse(
  db: Database,
  env: AppEnv,
  user: User,
  feedId: string,
  enabled: boolean,
): Promise<FediverseStatus> {
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  await assertFeedExists(db, id);
  if (enabled && !env.FEDIVERSE.available) throw AppError.conflict(FEDIVERSE_TEXTS.unavailable);
  const [actor] = await db
    .select({ deletedAt: fediverseActors.deletedAt })
    .from(fediverseActors)
    .where(eq(fediverseActors.feedId, id));
  if (actor?.deletedAt) throw AppError.conflict(FEDIVERSE_TEXTS.retired);
  if (actor) {
    await db
      .update(fediverseActors)
      .set({ enabled, updatedAt: new Date() })
      .where(eq(fediverseActors.feedId, id));
  } else if (enabled) {
    const pair = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    await db
      .insert(fediverseActors)
      .values({
        feedId: id,
        enabled: true,
        publicKey: { ...(await exportJwk(pair.publicKey)) },
        privateKey: { ...(await exportJwk(pair.privateKey)) },
      })
      .onConflictDoNothing();
  }
  return fediverseStatus(db, env, user, id);
}

/**
 * Called in the transaction that deletes a feed: its actor becomes a tombstone (410), keeping only its keys, so the
 * workers can still sign its `Delete`; the followers are told and dropped by `sendActorDeletes`.
 */
export async function retireFediverseActor(db: Database, feedId: string): Promise<void> {
  await db
    .update(fediverseActors)
    .set({ enabled: false, deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(fediverseActors.feedId, feedId), isNull(fediverseActors.deletedAt)));
}

/** The workers' pass after feed deletions: each retired actor's `Delete` queued to its followers, who are dropped. */
export async function sendActorDeletes(db: Database, fediverse: Fediverse): Promise<number> {
  const retired = await db
    .selectDistinct({ feedId: fediverseFollowers.feedId })
    .from(fediverseFollowers)
    .innerJoin(fediverseActors, eq(fediverseActors.feedId, fediverseFollowers.feedId))
    .where(isNotNull(fediverseActors.deletedAt))
    .limit(20);
  const ctx = fediverse.context();
  for (const { feedId } of retired) {
    const actorUri = ctx.getActorUri(feedId);
    const activity = new Delete({
      id: new URL(`${actorUri.href}#delete`),
      actor: actorUri,
      to: new URL("https://www.w3.org/ns/activitystreams#Public"),
      object: actorUri,
    });
    await queueActivity(db, feedId, activity, await followerInboxes(db, feedId));
    await db.transaction(async (tx) => {
      await tx.delete(fediverseFollowers).where(eq(fediverseFollowers.feedId, feedId));
      await tx.delete(fediverseNotes).where(eq(fediverseNotes.feedId, feedId));
      // Whatever else was waiting for these followers is moot once the actor is gone.
      await tx
        .delete(fediverseDeliveries)
        .where(
          and(
            eq(fediverseDeliveries.feedId, feedId),
            eq(fediverseDeliveries.status, "pending"),
            sql`${fediverseDeliveries.activityId} <> ${activity.id?.href}`,
          ),
        );
    });
  }
  return retired.length;
}
