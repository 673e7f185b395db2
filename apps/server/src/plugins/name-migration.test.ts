import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openScratchDatabase, type ScratchDatabase } from "../../test/databases.ts";
import type { TestServer } from "../../test/harness.ts";
import { migrateTo, migrationsBefore } from "../../test/migrations.ts";
import { newKey } from "../../test/near.ts";
import { type ServedApp, serveApp } from "../../test/serve-app.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import type { Database } from "../db/index.ts";
import {
  channelPauses,
  feedConfigVersions,
  feeds,
  pluginNotices,
  plugins,
  processingJobs,
  processingSteps,
  publications,
} from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";

/**
 * Decision 0022's migration over rows the code before it allowed: registrations named like built-ins or not as
 * `@scope/name`, feeds (and their history, plans and ledger) naming them. The database is migrated up to the
 * migration before, seeded, then migrated to the end, on the driver under test.
 */
const work = mkdtempSync(join(tmpdir(), "curate-name-migration-"));
let scratch: ScratchDatabase;
let served: ServedApp;

const fooOwner = newKey();
const feedCreator = newKey();
const SCOPE_OF_FOO_OWNER = fooOwner.implicitAccountId.slice(0, 39);
const ids: Record<string, number> = {};

const distributor = (plugin: string) => ({ plugin, config: { url: "https://hooks.example.com/in" } });

/** A feed config naming registrations the way feeds could before the rule. */
const hookedConfig = {
  id: "hooked",
  name: "Hooked",
  description: "Publishes to a webhook",
  sources: [{ plugin: "Foo", search: [{ query: "solar" }] }],
  outputs: {
    stream: {
      enabled: true,
      // The step's own config may hold a "plugin" key: it is the plugin's business and stays as written.
      transform: [{ plugin: " FOO ", config: { plugin: "webhook" } }],
      distribute: [
        { ...distributor("webhook"), transform: [{ plugin: "foo" }] },
        distributor("@curate/webhook"),
        distributor("@curatedotfun/tool"),
      ],
    },
    recap: [
      {
        id: "weekly",
        schedule: "0 9 * * 1",
        batchTransform: [{ plugin: "Foo" }],
        distribute: [distributor("Webhook")],
      },
    ],
  },
};

const fooName = `@${SCOPE_OF_FOO_OWNER}/foo`;
const webhookName = "@mallory-near/webhook-2";

/**
 * A feed as the code before 0017 stored it, written as SQL: the database is at migration 0016, whose tables lack
 * columns today's schema (and so its inserts) have.
 */
async function insertFeedAt0016(
  db: Database,
  feed: { id: string; createdBy: string; admins?: string[]; config: Record<string, unknown> },
) {
  const config = { id: feed.id, name: feed.id, description: `About ${feed.id}`, ...feed.config };
  await db.execute(
    sql`insert into feeds (id, name, description, created_by, admins, config)
      values (${feed.id}, ${feed.id}, ${`About ${feed.id}`}, ${feed.createdBy},
        ${JSON.stringify(feed.admins ?? [])}::jsonb, ${JSON.stringify(config)}::jsonb)`,
  );
}

beforeAll(async () => {
  const url = process.env.TEST_DATABASE_URL;
  scratch = await openScratchDatabase(url ? "postgres" : "pglite", url ? { adminUrl: url } : {});
  const { db } = scratch.handle;
  await migrateTo(scratch.handle, migrationsBefore(work, "_plugin_names"));

  const register = async (name: string, createdBy: string | null, type: "transformer" | "distributor") => {
    // Written as SQL, as insertFeedAt0016 is.
    const [row] = await queryRows<{ id: number }>(
      db,
      sql`insert into plugins (name, type, repo_url, entry_point, created_by)
        values (${name}, ${type}, ${`https://github.com/someone/${Object.keys(ids).length}`},
          'https://plugins.example.com/x.mjs', ${createdBy})
        returning id`,
    );
    ids[name] = row.id;
  };
  // The name the renamed "webhook" would want is taken by an older, valid registration: it gets "-2".
  await register("@mallory-near/webhook", "eve.near", "distributor");
  await register("webhook", "mallory.near", "distributor");
  await register("Foo", fooOwner.implicitAccountId, "transformer");
  // Two registrations that both become @bob-near/tool: the older keeps the plain name.
  await register("@curate/tool", "bob.near", "distributor");
  await register("@curatedotfun/tool", "bob.near", "distributor");
  await register("@alice/thing", "alice.near", "transformer");
  await register("legacy", null, "transformer");
  // The code before read this name as the built-in RSS distributor, whatever the registry held.
  await register("@curatedotfun/rss", "eve.near", "distributor");

  await insertFeedAt0016(db, {
    id: "hooked",
    createdBy: feedCreator.implicitAccountId,
    admins: ["Dave.near", "mallory.near"],
    config: hookedConfig,
  });
  await insertFeedAt0016(db, {
    id: "plain",
    createdBy: feedCreator.implicitAccountId,
    config: {
      outputs: {
        stream: {
          enabled: true,
          distribute: [distributor("@curate/webhook"), distributor("@curatedotfun/rss")],
        },
      },
    },
  });
  await db.insert(feedConfigVersions).values([
    { feedId: "hooked", version: 1, config: hookedConfig, kind: "created" },
    {
      feedId: "hooked",
      version: 2,
      config: { ...hookedConfig, outputs: { stream: { enabled: false } } },
      kind: "saved",
    },
  ]);
  // Written as SQL, like the feeds: the schema's insert would name columns later migrations added.
  const jobPlan = {
    transforms: [{ plugin: "Foo", config: { plugin: "webhook" } }],
    branches: [{ index: 0, transforms: [], distributor: distributor("webhook") }],
    entries: [{ chain: "global", from: 0, input: { plugin: "webhook" } }],
  };
  await db.execute(sql`insert into processing_jobs (id, feed_id, status, idempotency_key, plan)
    values ('job-1', 'hooked', 'failed', 'job-1', ${JSON.stringify(jobPlan)}::jsonb)`);
  // Steps and ledger entries as migration 0016 held them (no branch keys yet), written as SQL like the feeds.
  await db.execute(sql`insert into processing_steps (id, job_id, step_order, type, stage, branch, plugin_name)
    values ('step-1', 'job-1', 0, 'transformation', 'global', null, 'Foo'),
      ('step-2', 'job-1', 1, 'distribution', 'distributor', 0, 'webhook')`);
  await db.execute(sql`insert into publications (id, feed_id, job_id, step_id, branch, plugin_name, reference_kind)
    values ('publication-1', 'hooked', 'job-1', 'step-2', 0, 'webhook', 'webhook-delivery')`);
  await db.insert(channelPauses).values({
    feedId: "hooked",
    channelKey: "webhook:0123456789abcdef01234567",
    pluginName: "webhook",
    code: "CREDENTIALS_REJECTED",
    message: "The receiver refused the delivery (401).",
  });

  await scratch.handle.migrate();
  served = await serveApp(scratch.handle, { AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
});

afterAll(async () => {
  await served?.close();
  await scratch?.dispose();
  rmSync(work, { recursive: true, force: true });
});

/** The served app as the sign-in helpers use it. */
const asTestServer = () =>
  ({
    baseUrl: served.baseUrl,
    request: (path: string, init?: RequestInit) => fetch(`${served.baseUrl}${path}`, init),
    async json(path: string, init?: RequestInit) {
      const response = await fetch(`${served.baseUrl}${path}`, init);
      return { status: response.status, body: await response.json(), headers: response.headers };
    },
  }) as unknown as TestServer;

describe("the plugin-names migration", () => {
  it("renames every registration not in @scope/name form, or in a reserved scope, under its owner's scope", async () => {
    const rows = await scratch.handle.db
      .select({ id: plugins.id, name: plugins.name })
      .from(plugins)
      .orderBy(asc(plugins.id));
    expect(Object.fromEntries(rows.map((row) => [row.id, row.name]))).toEqual({
      [ids["@mallory-near/webhook"]]: "@mallory-near/webhook",
      [ids.webhook]: webhookName,
      [ids.Foo]: fooName,
      [ids["@curate/tool"]]: "@bob-near/tool",
      [ids["@curatedotfun/tool"]]: "@bob-near/tool-2",
      [ids["@alice/thing"]]: "@alice/thing",
      [ids.legacy]: "@unowned/legacy",
      [ids["@curatedotfun/rss"]]: "@eve-near/rss",
    });
  });

  it("rewrites every place a feed config names a renamed plugin, and nothing else", async () => {
    const [hooked] = await scratch.handle.db.select().from(feeds).where(eq(feeds.id, "hooked"));
    const expected = {
      ...hookedConfig,
      sources: [{ plugin: fooName, search: [{ query: "solar" }] }],
      outputs: {
        stream: {
          enabled: true,
          transform: [{ plugin: fooName, config: { plugin: "webhook" } }],
          distribute: [
            { ...distributor(webhookName), transform: [{ plugin: fooName }] },
            distributor("@curate/webhook"),
            distributor("@bob-near/tool-2"),
          ],
        },
        recap: [
          {
            id: "weekly",
            schedule: "0 9 * * 1",
            batchTransform: [{ plugin: fooName }],
            distribute: [distributor(webhookName)],
          },
        ],
      },
    };
    expect(hooked.config).toEqual(expected);
    const [plain] = await scratch.handle.db.select().from(feeds).where(eq(feeds.id, "plain"));
    expect(plain.config.outputs).toEqual({
      stream: {
        enabled: true,
        distribute: [distributor("@curate/webhook"), distributor("@curatedotfun/rss")],
      },
    });

    const versions = await scratch.handle.db
      .select()
      .from(feedConfigVersions)
      .orderBy(asc(feedConfigVersions.version));
    expect(versions.map((version) => version.config)).toEqual([
      expected,
      { ...expected, outputs: { stream: { enabled: false } } },
    ]);
  });

  it("rewrites what retries, resumes, retractions and paused channels look plugins up by", async () => {
    const { db } = scratch.handle;
    const [job] = await db.select().from(processingJobs).where(eq(processingJobs.id, "job-1"));
    expect(job.plan).toEqual({
      transforms: [{ plugin: fooName, config: { plugin: "webhook" } }],
      branches: [{ index: 0, transforms: [], distributor: distributor(webhookName) }],
      entries: [{ chain: "global", from: 0, input: { plugin: "webhook" } }],
    });
    const steps = await db.select().from(processingSteps).orderBy(asc(processingSteps.stepOrder));
    expect(steps.map((step) => step.pluginName)).toEqual([fooName, webhookName]);
    const [publication] = await db.select().from(publications);
    expect(publication.pluginName).toBe(webhookName);
    const [pause] = await db.select().from(channelPauses);
    expect(pause).toMatchObject({
      pluginName: webhookName,
      channelKey: `${webhookName}:0123456789abcdef01234567`,
    });
  });

  it("tells each renamed plugin's owner, and each other owner of a feed that follows it", async () => {
    const notices = await scratch.handle.db
      .select({ accountId: pluginNotices.accountId, kind: pluginNotices.kind, data: pluginNotices.data })
      .from(pluginNotices)
      .orderBy(asc(pluginNotices.id));
    expect(notices).toEqual(
      expect.arrayContaining([
        {
          accountId: "mallory.near",
          kind: "plugin_renamed",
          data: { oldName: "webhook", newName: webhookName, feedIds: ["hooked"] },
        },
        {
          accountId: "bob.near",
          kind: "plugin_renamed",
          data: { oldName: "@curatedotfun/tool", newName: "@bob-near/tool-2", feedIds: ["hooked"] },
        },
        {
          accountId: "eve.near",
          kind: "plugin_renamed",
          data: { oldName: "@curatedotfun/rss", newName: "@eve-near/rss", feedIds: [] },
        },
        {
          accountId: "dave.near",
          kind: "feed_plugin_renamed",
          data: { oldName: "webhook", newName: webhookName, feedIds: ["hooked"] },
        },
      ]),
    );
    // The plugin's owner administers the feed too: their own notice already names it, so they hear about the
    // feed's other renamed plugins only.
    expect(
      notices
        .filter((notice) => notice.accountId === "mallory.near")
        .map((notice) => [notice.kind, notice.data.oldName]),
    ).toEqual([
      ["plugin_renamed", "webhook"],
      ["feed_plugin_renamed", "Foo"],
      ["feed_plugin_renamed", "@curatedotfun/tool"],
    ]);
    // A feed naming a built-in's name kept the built-in: no rewrite to tell its owner about.
    expect(notices.filter((notice) => notice.data.oldName === "@curatedotfun/rss")).toHaveLength(1);
  });

  it("shows a renamed plugin's owner the notice on their Plugins page until they dismiss it", async () => {
    const server = asTestServer();
    const owner = await signIn(server, fooOwner);
    const { status, body } = await server.json("/api/plugins/notices", {
      headers: sessionHeaders(server, owner.cookie),
    });
    expect(status).toBe(200);
    expect(body.data.items).toEqual([
      expect.objectContaining({
        kind: "plugin_renamed",
        oldName: "Foo",
        newName: fooName,
        pluginId: String(ids.Foo),
        feedIds: ["hooked"],
        message: `Your plugin "Foo" is now "${fooName}": registered plugins are named @scope/name, and short or built-in names always mean Curate's built-in plugins. Feeds that named it now name "${fooName}": "hooked".`,
      }),
    ]);

    const creator = await signIn(server, feedCreator);
    const forCreator = await server.json("/api/plugins/notices", {
      headers: sessionHeaders(server, creator.cookie),
    });
    expect(
      forCreator.body.data.items.map((notice: { oldName: string; message: string }) => notice.oldName),
    ).toEqual(expect.arrayContaining(["webhook", "Foo"]));
    const aboutWebhook = forCreator.body.data.items.find(
      (notice: { oldName: string }) => notice.oldName === "webhook",
    );
    expect(aboutWebhook.message).toBe(
      `Your feed "hooked" named the registered plugin "webhook", now renamed "${webhookName}"; the config was changed to keep running it. If you meant Curate's built-in Webhook plugin, name "@curate/webhook" instead.`,
    );

    const someoneElses = body.data.items[0].id;
    const refused = await server.json(`/api/plugins/notices/${someoneElses}/dismiss`, {
      method: "POST",
      headers: sessionHeaders(server, creator.cookie),
    });
    expect(refused.status).toBe(404);
    const dismissed = await server.json(`/api/plugins/notices/${someoneElses}/dismiss`, {
      method: "POST",
      headers: sessionHeaders(server, owner.cookie),
    });
    expect(dismissed.status).toBe(200);
    const after = await server.json("/api/plugins/notices", {
      headers: sessionHeaders(server, owner.cookie),
    });
    expect(after.body.data.items).toEqual([]);
    expect((await server.json("/api/plugins/notices")).status).toBe(401);
  });
});
