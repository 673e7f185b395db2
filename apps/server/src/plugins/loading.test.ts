import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DISTRIBUTORS, type DistributorPluginName } from "@curate/core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ChildServer, startChildServer } from "../../test/child-server.ts";
import { openScratchDatabase, type ScratchDatabase } from "../../test/databases.ts";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { newKey } from "../../test/near.ts";
import { signIn } from "../../test/session.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;
const HOOK = fileURLToPath(new URL("../../test/loaded-modules.mjs", import.meta.url));
const FEED = "lazy";
const NOTION_TOKEN = "secret_lazy_loading_notion";

/**
 * SDKs only distributors (and the AI transform) use. Telegram's, the mailer and Fedify are not among them: the API
 * uses those itself (the intake's webhook, subscription mails, the actors it serves).
 */
const DISTRIBUTOR_SDKS = [
  "@notionhq/client",
  "@supabase/supabase-js",
  "@near-js/crypto",
  "@near-js/providers",
  "@near-js/transactions",
  "openai",
];

const distributorModule = (name: string) => `/src/plugins/distributors/${name}.ts`;
const sdkModule = (name: string) => `/node_modules/${name}/`;

interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked by assertions
  body: any;
}

function clientOf(baseUrl: string) {
  const request = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, init);
  const json = async (path: string, init?: RequestInit): Promise<Answer> => {
    const response = await request(path, init);
    return { status: response.status, headers: response.headers, body: await response.json() };
  };
  return { baseUrl, request, json };
}

/** An API-only process that records what it loads; `loaded()` stops it and reads the record. */
async function startRecordedApi(shared: Record<string, string>, dirs: string[]) {
  const dataDir = mkdtempSync(join(tmpdir(), "curate-lazy-"));
  dirs.push(dataDir);
  const record = join(dataDir, "loaded-modules.txt");
  const child: ChildServer = startChildServer(["--role=api"], {
    ...shared,
    DATA_DIR: dataDir,
    LOADED_MODULES_FILE: record,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${HOOK}`.trim(),
  });
  const line = await child.waitFor(/Curate listening on/);
  const client = clientOf(`http://127.0.0.1:${new URL(JSON.parse(line).url).port}`);
  return {
    child,
    client,
    async loaded(): Promise<string[]> {
      await child.kill("SIGTERM");
      return readFileSync(record, "utf8").split("\n");
    },
  };
}

// An API-only process needs PostgreSQL: the embedded database belongs to a single process (`--role=api` refuses it).
describe.skipIf(!postgresUrl)(
  "an API-only process loads a distributor's code and SDK only when it first runs it (PostgreSQL only: the API role needs it)",
  () => {
    let scratch: ScratchDatabase;
    const dirs: string[] = [];
    const children: ChildServer[] = [];
    const moderatorKey = newKey();
    let submissionId: string;
    let idle: Awaited<ReturnType<typeof startRecordedApi>>;
    let previewing: Awaited<ReturnType<typeof startRecordedApi>>;

    beforeAll(async () => {
      scratch = await openScratchDatabase("postgres", {
        adminUrl: postgresUrl,
        template: inject("pgTemplateDatabase"),
      });
      await insertFeed(scratch.handle.db, {
        id: FEED,
        createdBy: moderatorKey.implicitAccountId,
        config: {
          outputs: {
            stream: {
              enabled: true,
              distribute: [
                {
                  plugin: "@curate/notion",
                  config: {
                    token: "{{NOTION_TOKEN}}",
                    databaseId: "b7c1e2f4a9d84c3e8f2a61d0c5e7b913",
                    fields: { content: { type: "title", property: "Name" } },
                  },
                },
              ],
            },
          },
        },
      });
      ({ tweetId: submissionId } = await insertSubmission(scratch.handle.db, {
        content: "A post previewed on Notion",
        feeds: [{ feedId: FEED }],
      }));
      const shared = {
        DATABASE_URL: (scratch.handle.connection as { url: string }).url,
        HOST: "127.0.0.1",
        AUTH_RATE_LIMIT_PER_MINUTE: "1000",
        WRITE_RATE_LIMIT_PER_MINUTE: "1000",
        NOTION_TOKEN,
        PLUGIN_SECRETS: "NOTION_TOKEN",
      };
      [idle, previewing] = await Promise.all([
        startRecordedApi(shared, dirs),
        startRecordedApi(shared, dirs),
      ]);
      children.push(idle.child, previewing.child);
    }, 360_000);

    afterAll(async () => {
      await Promise.all(children.map((child) => child.kill("SIGKILL")));
      await scratch?.dispose();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it("serves the API, the plugin list with every distributor's schema included, without loading any distributor", async () => {
      const plugins = await idle.client.json("/api/plugins?limit=100");
      expect(plugins.status).toBe(200);
      const names = plugins.body.data.items.map((plugin: { name: string }) => plugin.name);
      for (const name of Object.keys(DISTRIBUTORS)) expect(names).toContain(`@curate/${name}`);
      expect((await idle.client.json(`/api/feeds/${FEED}`)).status).toBe(200);

      const loaded = await idle.loaded();
      // The record is read: the server's own modules are in it.
      expect(loaded.some((url) => url.endsWith("/src/app.ts"))).toBe(true);
      for (const name of Object.keys(DISTRIBUTORS)) {
        expect(
          loaded.filter((url) => url.endsWith(distributorModule(name))),
          name,
        ).toEqual([]);
      }
      for (const sdk of DISTRIBUTOR_SDKS) {
        expect(
          loaded.filter((url) => url.includes(sdkModule(sdk))),
          sdk,
        ).toEqual([]);
      }
    });

    it("loads Notion's distributor and SDK for a preview on Notion, and no other channel's", async () => {
      const moderator = (await signIn(previewing.client, moderatorKey)).cookie;
      const preview = await previewing.client.json("/api/processing/preview", {
        method: "POST",
        headers: { Cookie: moderator, Origin: previewing.client.baseUrl, "Content-Type": "application/json" },
        body: JSON.stringify({ submissionId, feedId: FEED }),
      });
      expect(preview.status).toBe(200);
      expect(preview.body.data.channels).toMatchObject([
        { pluginName: "@curate/notion", status: "rendered", action: "pages.create" },
      ]);

      const loaded = await previewing.loaded();
      expect(loaded.some((url) => url.endsWith(distributorModule("notion")))).toBe(true);
      expect(loaded.some((url) => url.includes(sdkModule("@notionhq/client")))).toBe(true);
      const others = Object.keys(DISTRIBUTORS).filter(
        (name) => name !== ("notion" satisfies DistributorPluginName),
      );
      for (const name of others) {
        expect(
          loaded.filter((url) => url.endsWith(distributorModule(name))),
          name,
        ).toEqual([]);
      }
      for (const sdk of DISTRIBUTOR_SDKS.filter((sdk) => sdk !== "@notionhq/client")) {
        expect(
          loaded.filter((url) => url.includes(sdkModule(sdk))),
          sdk,
        ).toEqual([]);
      }
    });
  },
);
