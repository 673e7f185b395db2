import { createHash } from "node:crypto";
import { type ActivitypubDistributorConfig, activitypubDistributorConfigSchema } from "@curate/core";
import { Delete, Tombstone, Update } from "@fedify/vocab";
import { and, eq, isNull } from "drizzle-orm";
import { fediverseActors, fediverseNotes } from "../../db/schema.ts";
import { followerInboxes, queueActivity } from "../../fediverse/delivery.ts";
import { createActivity, type Fediverse, noteObject } from "../../fediverse/federation.ts";
import { noteHtml } from "../../fediverse/notes.ts";
import { type DistributorPlugin, PluginError } from "../types.ts";
import { postFrom } from "./content.ts";

/** What the fediverse distributor renders: the note's HTML and link, as followers receive them. */
export interface NoteRequest {
  content: string;
  url: string | null;
}

function curatorOf(input: unknown): { handle: string; url: string | null } | null {
  if (!input || typeof input !== "object") return null;
  const fields = input as Record<string, unknown>;
  const handle = typeof fields.curatorHandle === "string" ? fields.curatorHandle : null;
  if (!handle) return null;
  const url = typeof fields.curatorProfileUrl === "string" ? fields.curatorProfileUrl : null;
  return { handle: handle.slice(0, 100), url: url && /^https?:\/\//.test(url) ? url : null };
}

/** A note's id from its publication's idempotency key: a resumed or retried send makes the same note. */
function noteIdOf(key: string): string {
  return createHash("sha256").update(key).digest("base64url").slice(0, 32);
}

/**
 * The feed's fediverse actor as a channel (issue 35, decision 0037). `send` stores the note and queues a `Create`
 * to every follower's (shared) inbox; a replay of a live publication edits the note and queues an `Update`; a
 * retraction queues a `Delete`. The workers' delivery passes sign and send them, retrying with backoff.
 */
export function createActivitypubDistributor(
  fediverse: Fediverse,
): DistributorPlugin<ActivitypubDistributorConfig> {
  // Read when a step runs, not when the registry is built (building the plugins reads no service).
  const { deps } = fediverse;

  async function assertActor(feedId: string) {
    const [actor] = await deps.db
      .select({ enabled: fediverseActors.enabled })
      .from(fediverseActors)
      .where(and(eq(fediverseActors.feedId, feedId), isNull(fediverseActors.deletedAt)));
    if (!deps.env.FEDIVERSE.available) {
      throw new PluginError("The fediverse is off on this server: its PUBLIC_URL must be an https address.", {
        code: "FEDIVERSE_UNAVAILABLE",
      });
    }
    if (!actor?.enabled) {
      throw new PluginError(
        "The fediverse is off for this feed: turn it on in the feed's Settings → Fediverse.",
        {
          code: "FEDIVERSE_OFF",
        },
      );
    }
  }

  return {
    type: "distributor",
    name: "activitypub",
    configSchema: activitypubDistributorConfigSchema,
    async render(input, config, context) {
      const post = postFrom(input);
      const text = post.text ?? [post.title, post.body].filter(Boolean).join("\n\n");
      if (!text && !post.link) {
        throw new PluginError("The note has nothing to say: map a text, title, description or link.", {
          code: "FEDIVERSE_EMPTY",
        });
      }
      const request: NoteRequest = {
        content: noteHtml({
          text,
          link: post.link,
          curator: config.creditCurator === false ? null : curatorOf(input),
        }),
        url: post.link,
      };
      const editable = typeof context.replay?.receipt.reference?.id === "string";
      return { action: editable ? "Update" : "Create", request, edits: editable };
    },
    async send(rendered, _config, context) {
      await assertActor(context.feedId);
      const request = rendered.request as NoteRequest;
      const ctx = fediverse.context();
      const inboxes = await followerInboxes(deps.db, context.feedId);
      const replayed = context.replay?.receipt.reference?.id;
      if (rendered.edits && typeof replayed === "string") {
        const [row] = await deps.db
          .update(fediverseNotes)
          .set({ content: request.content, url: request.url, updatedAt: new Date() })
          .where(and(eq(fediverseNotes.id, replayed), eq(fediverseNotes.feedId, context.feedId)))
          .returning();
        if (!row) throw new PluginError("The note to edit is gone.", { code: "FEDIVERSE_NOTE_GONE" });
        const note = noteObject(ctx, context.feedId, row);
        const update = new Update({
          id: new URL(`${note.id?.href}#update-${row.updatedAt?.getTime()}`),
          actor: ctx.getActorUri(context.feedId),
          to: note.toId,
          cc: note.ccId,
          object: note,
        });
        const queued = await queueActivity(deps.db, context.feedId, update, inboxes);
        return {
          noteId: row.id,
          inboxes: queued,
          reference: { kind: "activitypub-note", id: row.id, url: note.id?.href },
        };
      }
      const id = noteIdOf(context.idempotencyKey ?? `activitypub:${context.jobId}`);
      await deps.db
        .insert(fediverseNotes)
        .values({ id, feedId: context.feedId, content: request.content, url: request.url })
        .onConflictDoNothing();
      const [row] = await deps.db.select().from(fediverseNotes).where(eq(fediverseNotes.id, id));
      const note = noteObject(ctx, context.feedId, row);
      const queued = await queueActivity(
        deps.db,
        context.feedId,
        createActivity(ctx, context.feedId, note),
        inboxes,
      );
      return {
        noteId: id,
        inboxes: queued,
        reference: { kind: "activitypub-note", id, url: note.id?.href },
      };
    },
    async retract(receipt, _config, context) {
      const id = receipt.reference?.id;
      if (typeof id !== "string") return { retracted: false, reason: "The note's id was not recorded." };
      const [row] = await deps.db
        .update(fediverseNotes)
        .set({ deletedAt: new Date() })
        .where(and(eq(fediverseNotes.id, id), eq(fediverseNotes.feedId, context.feedId)))
        .returning();
      if (!row) return { retracted: true, alreadyGone: true };
      const ctx = fediverse.context();
      const noteUri = noteObject(ctx, context.feedId, row).id as URL;
      const activity = new Delete({
        id: new URL(`${noteUri.href}#delete`),
        actor: ctx.getActorUri(context.feedId),
        to: new URL("https://www.w3.org/ns/activitystreams#Public"),
        cc: ctx.getFollowersUri(context.feedId),
        object: new Tombstone({ id: noteUri }),
      });
      const queued = await queueActivity(
        deps.db,
        context.feedId,
        activity,
        await followerInboxes(deps.db, context.feedId),
      );
      return { retracted: true, inboxes: queued };
    },
  };
}
