import type { webcrypto } from "node:crypto";
import { type Context, signRequest } from "@fedify/fedify";
import type { Activity } from "@fedify/vocab";
import { and, eq, lte, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { callExternal, ExternalServiceError, isRetryableStatus } from "../clients/http.ts";
import { BlockedUrlError } from "../clients/outbound.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { fediverseDeliveries, fediverseFollowers } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { actorKeys, mainKeyId } from "./keys.ts";
import { preloadedContextLoader } from "./loader.ts";

/** Deliveries one pass sends; the rest wait for the next pass. */
const BATCH = 50;
/** How long a claimed delivery is left to its worker before another may take it (a worker that died mid-send). */
const LEASE_MS = 5 * 60_000;
/** Waits between attempts double from this, up to the maximum. */
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 12 * 60 * 60_000;

/** Where a feed's followers receive: each server's shared inbox once, else each follower's own inbox. */
export async function followerInboxes(db: Database, feedId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({
      inbox: sql<string>`coalesce(${fediverseFollowers.sharedInbox}, ${fediverseFollowers.inbox})`,
    })
    .from(fediverseFollowers)
    .where(eq(fediverseFollowers.feedId, feedId));
  return rows.map((row) => row.inbox);
}

/**
 * Queues an activity of a feed's actor for `inboxes`: one delivery row per inbox, sent and retried by the workers'
 * passes. The same activity to the same inbox is queued once, so a resumed or retried send does not deliver twice.
 */
export async function queueActivity(
  db: Database,
  feedId: string,
  activity: Activity,
  inboxes: readonly string[],
): Promise<number> {
  if (!activity.id) throw new Error("an activity needs an id to be delivered");
  if (inboxes.length === 0) return 0;
  const json = (await activity.toJsonLd({
    format: "compact",
    contextLoader: preloadedContextLoader,
  })) as Record<string, unknown>;
  const activityId = activity.id.href;
  for (let start = 0; start < inboxes.length; start += 500) {
    await db
      .insert(fediverseDeliveries)
      .values(
        inboxes.slice(start, start + 500).map((inbox) => ({
          id: crypto.randomUUID(),
          feedId,
          inbox,
          activityId,
          activity: json,
        })),
      )
      .onConflictDoNothing();
  }
  return inboxes.length;
}

export interface FediverseDeliveryPass {
  sent: number;
  retrying: number;
  failed: number;
}

interface DueDelivery {
  id: string;
  feedId: string;
  inbox: string;
  activity: Record<string, unknown>;
  attempts: number;
}

/**
 * One delivery pass: claims the deliveries that are due, signs each POST as its feed's actor (HTTP Signatures) and
 * sends it through the outbound guard. An inbox that accepts ends it; a retryable failure (no answer, 408/429/5xx)
 * waits twice as long each time until the attempts run out; any other answer (a 4xx, a refused address) ends it
 * as failed.
 */
export async function deliverDue(options: {
  db: Database;
  env: AppEnv;
  logger: Logger;
  context: () => Context<void>;
}): Promise<FediverseDeliveryPass> {
  const { db, env, logger } = options;
  const pass: FediverseDeliveryPass = { sent: 0, retrying: 0, failed: 0 };
  const due = await queryRows<DueDelivery>(
    db,
    sql`update fediverse_deliveries set next_attempt_at = now() + make_interval(secs => ${LEASE_MS / 1000}),
          attempts = attempts + 1, updated_at = now()
        where id in (
          select id from fediverse_deliveries where status = 'pending' and next_attempt_at <= now()
          order by next_attempt_at limit ${BATCH} for update skip locked)
        returning id, feed_id as "feedId", inbox, activity, attempts`,
  );
  if (due.length === 0) return pass;
  const ctx = options.context();
  const keysByFeed = new Map<string, { keyId: URL; privateKey: webcrypto.CryptoKey } | null>();
  for (const delivery of due) {
    let key = keysByFeed.get(delivery.feedId);
    if (key === undefined) {
      const pair = await actorKeys(db, delivery.feedId);
      key = pair ? { keyId: mainKeyId(ctx.getActorUri(delivery.feedId)), privateKey: pair.privateKey } : null;
      keysByFeed.set(delivery.feedId, key);
    }
    const outcome = key
      ? await send(delivery, key, env, logger)
      : { ok: false as const, retryable: false, error: "the feed's actor has no key" };
    if (outcome.ok) {
      pass.sent++;
      await db
        .update(fediverseDeliveries)
        .set({ status: "sent", error: null, updatedAt: new Date() })
        .where(eq(fediverseDeliveries.id, delivery.id));
      continue;
    }
    const giveUp = !outcome.retryable || delivery.attempts >= env.FEDIVERSE_DELIVERY_ATTEMPTS;
    if (giveUp) pass.failed++;
    else pass.retrying++;
    const wait = Math.min(BACKOFF_BASE_MS * 2 ** (delivery.attempts - 1), BACKOFF_MAX_MS);
    await db
      .update(fediverseDeliveries)
      .set({
        status: giveUp ? "failed" : "pending",
        error: outcome.error.slice(0, 500),
        nextAttemptAt: new Date(Date.now() + wait),
        updatedAt: new Date(),
      })
      .where(eq(fediverseDeliveries.id, delivery.id));
    logger.warn(
      { feedId: delivery.feedId, inbox: delivery.inbox, attempts: delivery.attempts, giveUp },
      `fediverse delivery failed: ${outcome.error}`,
    );
  }
  return pass;
}

async function send(
  delivery: DueDelivery,
  key: { keyId: URL; privateKey: webcrypto.CryptoKey },
  env: AppEnv,
  logger: Logger,
): Promise<{ ok: true } | { ok: false; retryable: boolean; error: string }> {
  const body = JSON.stringify(delivery.activity);
  try {
    const request = new Request(delivery.inbox, {
      method: "POST",
      headers: { "Content-Type": "application/activity+json", Accept: "application/activity+json" },
      body,
    });
    // draft-cavage HTTP Signatures: what Mastodon and most of the fediverse verify.
    const signed = await signRequest(request, key.privateKey, key.keyId, {
      spec: "draft-cavage-http-signatures-12",
    });
    // The inbox is a remote server's choice: public addresses only (decision 0023).
    const response = await callExternal(
      delivery.inbox,
      { method: "POST", headers: signed.headers, body },
      {
        service: "Fediverse inbox",
        reach: { privateHostsAllowed: env.FEDIVERSE.allowedHosts },
        timeoutMs: 15_000,
        retries: 0,
        logger,
      },
    );
    await response.body?.cancel();
    if (response.ok) return { ok: true };
    return { ok: false, retryable: isRetryableStatus(response.status), error: `HTTP ${response.status}` };
  } catch (error) {
    if (error instanceof BlockedUrlError) return { ok: false, retryable: false, error: error.message };
    if (error instanceof ExternalServiceError)
      return { ok: false, retryable: error.retryable, error: error.message };
    return { ok: false, retryable: true, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Old finished deliveries, removed by the workers' sweep. */
export async function pruneDeliveries(db: Database, before: Date) {
  await db
    .delete(fediverseDeliveries)
    .where(and(sql`status <> 'pending'`, lte(fediverseDeliveries.updatedAt, before)));
}
