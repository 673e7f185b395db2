import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFederation } from "@fedify/testing";
import { Follow, Person, Service, Tombstone, Undo } from "@fedify/vocab";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScratchDatabase } from "../../test/databases.ts";
import { insertFeed } from "../../test/factories.ts";
import { freshDatabase } from "../../test/harness.ts";
import { loadEnv } from "../config/env.ts";
import { fediverseDeliveries, fediverseFollowers, type User } from "../db/schema.ts";
import { type FediverseDeps, registerFediverse } from "./federation.ts";
import { retireFediverseActor, setFediverse } from "./service.ts";

/**
 * The dispatchers and inbox listeners on the framework's own test double (`@fedify/testing`): activities handed to
 * the listeners as if verified, the actor read through the dispatcher, against a real database.
 */
const ORIGIN = "https://curate.example";
let scratch: ScratchDatabase;
let deps: FediverseDeps;
const owner: User = {
  id: 1,
  nearAccountId: "owner.near",
  username: null,
  profileImage: null,
  createdAt: new Date(),
  updatedAt: new Date(),
};

function mockFederation() {
  // Our federation carries no context data, but the double wants some before it hands activities to listeners.
  const federation = createFederation<void>({ contextData: null as unknown as undefined, origin: ORIGIN });
  registerFediverse(federation, deps);
  return federation;
}

const remote = (name: string) =>
  new Person({
    id: new URL(`https://social.example/users/${name}`),
    preferredUsername: name,
    inbox: new URL(`https://social.example/users/${name}/inbox`),
  });

beforeAll(async () => {
  scratch = await freshDatabase();
  const env = loadEnv({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(join(tmpdir(), "curate-fedi-")),
    PUBLIC_URL: ORIGIN,
    ALLOW_PUBLIC_TRIAL: "true",
    LOG_LEVEL: "silent",
  });
  deps = { db: scratch.handle.db, env, logger: pino({ level: "silent" }) };
  await insertFeed(deps.db, { id: "news", name: "Solar News", createdBy: owner.nearAccountId });
  await insertFeed(deps.db, { id: "quiet", name: "Quiet", createdBy: owner.nearAccountId });
  await setFediverse(deps.db, env, owner, "news", true);
}, 120_000);

afterAll(async () => {
  await scratch?.dispose();
});

describe("fediverse dispatchers and listeners (@fedify/testing)", () => {
  it("dispatches the feed's actor with its name, inbox, followers and key", async () => {
    const federation = mockFederation();
    const ctx = federation.createContext(new URL(ORIGIN), undefined);
    const actor = await ctx.getActor("news");
    expect(actor).toBeInstanceOf(Service);
    expect((actor as Service).name?.toString()).toBe("Solar News");
    expect((actor as Service).preferredUsername?.toString()).toBe("news");
    expect((actor as Service).inboxId?.pathname).toBe("/ap/feeds/news/inbox");
    expect((actor as Service).followersId?.pathname).toBe("/ap/feeds/news/followers");
    expect(await ctx.getActor("quiet")).toBeNull();
  });

  it("records a Follow and queues the Accept to the follower's inbox; ignores a Follow of a feed that is off", async () => {
    const federation = mockFederation();
    const ctx = federation.createContext(new URL(ORIGIN), undefined);
    const alice = remote("alice");
    await federation.receiveActivity(
      new Follow({
        id: new URL("https://social.example/f/1"),
        actor: alice,
        object: ctx.getActorUri("news"),
      }),
    );
    await federation.receiveActivity(
      new Follow({
        id: new URL("https://social.example/f/2"),
        actor: alice,
        object: ctx.getActorUri("quiet"),
      }),
    );
    const followers = await deps.db.select().from(fediverseFollowers);
    expect(followers).toEqual([
      expect.objectContaining({ feedId: "news", actorUri: alice.id?.href, inbox: alice.inboxId?.href }),
    ]);
    const [accept] = await deps.db.select().from(fediverseDeliveries);
    expect(accept).toMatchObject({ feedId: "news", inbox: alice.inboxId?.href, status: "pending" });
    expect(accept.activity).toMatchObject({ type: "Accept", object: { type: "Follow" } });
  });

  it("a Follow whose actor document is someone else is ignored; an Undo ends only its own actor's follow", async () => {
    const federation = mockFederation();
    const ctx = federation.createContext(new URL(ORIGIN), undefined);
    await federation.receiveActivity(
      new Follow({
        id: new URL("https://social.example/f/3"),
        actor: new URL("https://social.example/users/mallory"),
        object: ctx.getActorUri("news"),
      }),
    );
    expect((await deps.db.select().from(fediverseFollowers)).map((f) => f.actorUri)).toEqual([
      "https://social.example/users/alice",
    ]);
    const follow = new Follow({
      id: new URL("https://social.example/f/1"),
      actor: new URL("https://social.example/users/alice"),
      object: ctx.getActorUri("news"),
    });
    await federation.receiveActivity(
      new Undo({
        id: new URL("https://social.example/u/1"),
        actor: new URL("https://social.example/users/bob"),
        object: follow,
      }),
    );
    expect(await deps.db.select().from(fediverseFollowers)).toHaveLength(1);
    await federation.receiveActivity(
      new Undo({ id: new URL("https://social.example/u/2"), actor: remote("alice"), object: follow }),
    );
    expect(await deps.db.select().from(fediverseFollowers)).toHaveLength(0);
  });

  it("a retired actor dispatches a Tombstone, and its id cannot opt in again", async () => {
    await retireFediverseActor(deps.db, "news");
    const federation = mockFederation();
    const ctx = federation.createContext(new URL(ORIGIN), undefined);
    expect(await ctx.getActor("news")).toBeInstanceOf(Tombstone);
    await expect(setFediverse(deps.db, deps.env, owner, "news", true)).rejects.toMatchObject({
      status: 409,
    });
    expect(
      await deps.db.select().from(fediverseFollowers).where(eq(fediverseFollowers.feedId, "news")),
    ).toHaveLength(0);
  });
});
