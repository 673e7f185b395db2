import {
  type Context,
  createFederation,
  type Federatable,
  type Federation,
  type MessageQueue,
} from "@fedify/fedify";
import {
  Accept,
  Create,
  Endpoints,
  Follow,
  Image,
  isActor,
  Note,
  PUBLIC_COLLECTION,
  Service,
  Tombstone,
  Undo,
} from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { and, asc, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { fediverseActors, fediverseFollowers, fediverseNotes, feeds } from "../db/schema.ts";
import { VERSION } from "../version.ts";
import { queueActivity } from "./delivery.ts";
import { actorKeys } from "./keys.ts";
import { DrizzleKvStore } from "./kv.ts";
import { guardedAuthenticatedLoaderFactory, guardedDocumentLoader } from "./loader.ts";
import { noteHtml } from "./notes.ts";

/** Followers and outbox pages, as remote servers read them. */
const PAGE_SIZE = 50;
/** Followers one feed's actor keeps; a Follow past it is not accepted. */
export const FOLLOWERS_MAX = 200_000;

export const ACTOR_PATH = "/ap/feeds/{identifier}";
export const SHARED_INBOX_PATH = "/ap/inbox";
/** The NodeInfo 2.1 document; `/.well-known/nodeinfo` (Fedify's) points to it. */
export const NODEINFO_PATH = "/ap/nodeinfo/2.1";
/** NodeInfo's counts stop here: an unauthenticated read must stay cheap however much was published. */
export const NODEINFO_COUNT_MAX = 1_000_000;

export interface FediverseDeps {
  db: Database;
  env: AppEnv;
  logger: Logger;
  /**
   * Fedify's inbox queue (decision 0037): the app's enqueue-only one (fediverse/queue.ts), or the workers' that
   * they listen to. A federation without one (the distributor's) never takes inbound activities.
   */
  inbox?: MessageQueue;
}

/** This server's federation (Fedify), built once per app and per worker: the same routes, keys and ids. */
export interface Fediverse {
  federation: Federation<void>;
  /** A context for building ids and activities outside a request (the distributor, deliveries, deletions). */
  context(): Context<void>;
  deps: FediverseDeps;
}

/**
 * Fedify's types name the standard `Temporal.Instant` (TypeScript 7 knows it; 5.9 does not), while Node has no
 * Temporal yet and Fedify itself runs on the polyfill: an instant from the polyfill, typed as Fedify asks.
 */
type FedifyInstant = NonNullable<ConstructorParameters<typeof Note>[0]["published"]>;
const instantOf = (date: Date) =>
  Temporal.Instant.fromEpochMilliseconds(date.getTime()) as unknown as FedifyInstant;

export function actorTombstone(ctx: Context<void>, identifier: string, deletedAt: Date): Tombstone {
  return new Tombstone({
    id: ctx.getActorUri(identifier),
    deleted: instantOf(deletedAt),
  });
}

export function noteObject(
  ctx: Context<void>,
  feedId: string,
  note: { id: string; content: string; url: string | null; publishedAt: Date; updatedAt: Date | null },
): Note {
  return new Note({
    id: ctx.getObjectUri(Note, { id: note.id }),
    attribution: ctx.getActorUri(feedId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(feedId),
    content: note.content,
    url: note.url ? new URL(note.url) : null,
    published: instantOf(note.publishedAt),
    updated: note.updatedAt ? instantOf(note.updatedAt) : null,
  });
}

export function createActivity(ctx: Context<void>, feedId: string, note: Note): Create {
  return new Create({
    id: new URL(`${note.id?.href}#create`),
    actor: ctx.getActorUri(feedId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(feedId),
    object: note,
    published: note.published,
  });
}

/** A feed's actor id: PUBLIC_URL is the federation's origin, so it is what Fedify's contexts make too. */
export function actorUriOf(publicUrl: string, feedId: string): URL {
  return new URL(`/ap/feeds/${encodeURIComponent(feedId)}`, publicUrl);
}

/** The feed whose actor `uri` is, when it is one of ours. */
function feedIdOf(publicUrl: string, uri: URL): string | null {
  const match = /^\/ap\/feeds\/([^/]+)$/.exec(uri.pathname);
  if (!match) return null;
  const feedId = decodeURIComponent(match[1]);
  return actorUriOf(publicUrl, feedId).href === uri.href ? feedId : null;
}

/**
 * The feeds' ActivityPub actors (issue 35, decision 0037): WebFinger, NodeInfo, the actor, its keys, followers and
 * outbox, the notes it published, and an inbox that verifies every activity's signature (Fedify, in the request),
 * queues it for the workers and acts only on Follow and Undo Follow — nothing inbound reaches a feed's content.
 * Every document it fetches goes through the outbound guard; its deliveries are the workers' (fediverse/delivery.ts),
 * through the guard as well.
 */
export function createFediverse(deps: FediverseDeps): Fediverse {
  const { db, env, logger } = deps;
  const loaderSettings = { allowedHosts: env.FEDIVERSE.allowedHosts, logger };
  const documentLoader = guardedDocumentLoader(loaderSettings);
  const federation = createFederation<void>({
    kv: new DrizzleKvStore(db),
    // Only the inbox is queued: outbound activities are our own deliveries (fediverse_deliveries), never Fedify's.
    queue: deps.inbox ? { inbox: deps.inbox } : undefined,
    // Listening is the workers' (worker/host.ts): a process that answers requests only enqueues.
    manuallyStartQueue: true,
    origin: env.PUBLIC_URL,
    documentLoaderFactory: () => documentLoader,
    contextLoaderFactory: () => documentLoader,
    authenticatedDocumentLoaderFactory: guardedAuthenticatedLoaderFactory(loaderSettings),
  });
  registerFediverse(federation, deps);
  return {
    federation,
    context: () => federation.createContext(new URL(env.PUBLIC_URL)),
    deps,
  };
}

/**
 * The dispatchers and inbox listeners, on any federation of this shape: the app's, or the framework's test double
 * (`@fedify/testing`) in the unit tests.
 */
export function registerFediverse(federation: Federatable<void>, deps: FediverseDeps): void {
  const { db, env, logger } = deps;
  federation.setNodeInfoDispatcher(NODEINFO_PATH, async () => ({
    software: { name: "curate", version: VERSION },
    protocols: ["activitypub"],
    openRegistrations: false,
    usage: await nodeInfoUsage(db),
  }));

  const actorSetters = federation
    .setActorDispatcher(ACTOR_PATH, async (ctx, identifier) => {
      const [row] = await db
        .select({
          enabled: fediverseActors.enabled,
          deletedAt: fediverseActors.deletedAt,
          name: feeds.name,
          description: feeds.description,
          image: feeds.image,
        })
        .from(fediverseActors)
        .leftJoin(feeds, eq(feeds.id, fediverseActors.feedId))
        .where(eq(fediverseActors.feedId, identifier));
      if (!row) return null;
      if (row.deletedAt) return actorTombstone(ctx, identifier, row.deletedAt);
      if (!row.enabled || !env.FEDIVERSE.available || row.name === null) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      return new Service({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: row.name,
        summary: row.description ? noteHtml({ text: row.description }) : null,
        icon: row.image ? new Image({ url: new URL(row.image, env.PUBLIC_URL) }) : null,
        url: new URL(`/feed/${identifier}`, env.PUBLIC_URL),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: keys[0]?.cryptographicKey,
        assertionMethods: keys.map((key) => key.multikey),
        manuallyApprovesFollowers: false,
        discoverable: true,
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      const pair = await actorKeys(db, identifier);
      return pair ? [pair] : [];
    });
  // The handle is the feed id (`@feedid@host`); feed ids are lower-case, handles are matched without case. (The
  // framework's test double has no handle mapping, hence the optional call.)
  actorSetters.mapHandle?.((_ctx, username) => username.toLowerCase());

  // Each setter is called on its own (not chained): the framework's test double returns itself from them.
  const followers = federation.setFollowersDispatcher(
    `${ACTOR_PATH}/followers`,
    async (_ctx, identifier, cursor) => {
      if (cursor === null) return null;
      const offset = Math.max(0, Number.parseInt(cursor, 10) || 0);
      const rows = await db
        .select()
        .from(fediverseFollowers)
        .where(eq(fediverseFollowers.feedId, identifier))
        .orderBy(asc(fediverseFollowers.createdAt), asc(fediverseFollowers.actorUri))
        .limit(PAGE_SIZE + 1)
        .offset(offset);
      return {
        items: rows.slice(0, PAGE_SIZE).map((row) => ({
          id: new URL(row.actorUri),
          inboxId: new URL(row.inbox),
          endpoints: row.sharedInbox ? { sharedInbox: new URL(row.sharedInbox) } : null,
        })),
        nextCursor: rows.length > PAGE_SIZE ? String(offset + PAGE_SIZE) : null,
      };
    },
  );
  followers.setCounter(async (_ctx, identifier) => {
    const [row] = await db
      .select({ n: count() })
      .from(fediverseFollowers)
      .where(eq(fediverseFollowers.feedId, identifier));
    return row?.n ?? 0;
  });
  followers.setFirstCursor(() => "0");

  const outbox = federation.setOutboxDispatcher(`${ACTOR_PATH}/outbox`, async (ctx, identifier, cursor) => {
    if (cursor === null) return null;
    const offset = Math.max(0, Number.parseInt(cursor, 10) || 0);
    const rows = await db
      .select()
      .from(fediverseNotes)
      .where(and(eq(fediverseNotes.feedId, identifier), isNull(fediverseNotes.deletedAt)))
      .orderBy(desc(fediverseNotes.publishedAt), desc(fediverseNotes.id))
      .limit(PAGE_SIZE + 1)
      .offset(offset);
    return {
      items: rows
        .slice(0, PAGE_SIZE)
        .map((row) => createActivity(ctx, identifier, noteObject(ctx, identifier, row))),
      nextCursor: rows.length > PAGE_SIZE ? String(offset + PAGE_SIZE) : null,
    };
  });
  outbox.setCounter(async (_ctx, identifier) => {
    const [row] = await db
      .select({ n: count() })
      .from(fediverseNotes)
      .where(and(eq(fediverseNotes.feedId, identifier), isNull(fediverseNotes.deletedAt)));
    return row?.n ?? 0;
  });
  outbox.setFirstCursor(() => "0");

  federation.setObjectDispatcher(Note, "/ap/notes/{id}", async (ctx, { id }) => {
    const [row] = await db.select().from(fediverseNotes).where(eq(fediverseNotes.id, id));
    if (!row || row.deletedAt) return null;
    return noteObject(ctx, row.feedId, row);
  });

  federation
    .setInboxListeners(`${ACTOR_PATH}/inbox`, SHARED_INBOX_PATH)
    .on(Follow, async (ctx, follow) => {
      if (!follow.id || !follow.actorId || !follow.objectId) return;
      const feedId = feedIdOf(env.PUBLIC_URL, follow.objectId);
      if (!feedId) return;
      const [actor] = await db
        .select({ enabled: fediverseActors.enabled, deletedAt: fediverseActors.deletedAt })
        .from(fediverseActors)
        .where(eq(fediverseActors.feedId, feedId));
      if (!actor?.enabled || actor.deletedAt) return;
      const follower = await follow.getActor(ctx);
      // The verified signer is the Follow's actor (Fedify checks the key's owner); its document says where to deliver.
      if (!isActor(follower) || !follower.id || !follower.inboxId) return;
      if (follower.id.href !== follow.actorId.href) return;
      const [{ n }] = await db
        .select({ n: count() })
        .from(fediverseFollowers)
        .where(eq(fediverseFollowers.feedId, feedId));
      if (n >= FOLLOWERS_MAX) {
        logger.warn(
          { feedId },
          "fediverse: a feed's followers are at the maximum; a Follow was not accepted",
        );
        return;
      }
      const sharedInbox = follower.endpoints?.sharedInbox?.href ?? null;
      await db
        .insert(fediverseFollowers)
        .values({
          feedId,
          actorUri: follower.id.href,
          inbox: follower.inboxId.href,
          sharedInbox,
          followId: follow.id.href,
        })
        .onConflictDoUpdate({
          target: [fediverseFollowers.feedId, fediverseFollowers.actorUri],
          set: { inbox: follower.inboxId.href, sharedInbox, followId: follow.id.href },
        });
      const feedActor = actorUriOf(env.PUBLIC_URL, feedId);
      const accept = new Accept({
        id: new URL(`${feedActor.href}#accepts/${crypto.randomUUID()}`),
        actor: feedActor,
        object: follow,
      });
      await queueActivity(db, feedId, accept, [follower.inboxId.href]);
    })
    .on(Undo, async (ctx, undo) => {
      if (!undo.actorId) return;
      const object = await undo.getObject(ctx);
      if (!(object instanceof Follow) || !object.objectId) return;
      // Only the follower itself can end its follow: the Undo's verified actor must be the Follow's actor.
      if (object.actorId && object.actorId.href !== undo.actorId.href) return;
      const feedId = feedIdOf(env.PUBLIC_URL, object.objectId);
      if (!feedId) return;
      await db
        .delete(fediverseFollowers)
        .where(
          and(eq(fediverseFollowers.feedId, feedId), eq(fediverseFollowers.actorUri, undo.actorId.href)),
        );
    })
    .onError((_ctx, error) => {
      logger.warn({ err: error }, "fediverse: an inbound activity failed");
    });
}

/** NodeInfo's usage: the feeds followable now as its users, their notes still published as its posts. */
async function nodeInfoUsage(db: Database) {
  const [actors] = await db
    .select({ n: count() })
    .from(fediverseActors)
    .where(and(eq(fediverseActors.enabled, true), isNull(fediverseActors.deletedAt)));
  const live = db
    .select({ one: sql`1` })
    .from(fediverseNotes)
    .where(isNull(fediverseNotes.deletedAt))
    .limit(NODEINFO_COUNT_MAX)
    .as("live");
  const [notes] = await db.select({ n: count() }).from(live);
  return {
    users: { total: actors?.n ?? 0 },
    localPosts: notes?.n ?? 0,
    localComments: 0,
  };
}
