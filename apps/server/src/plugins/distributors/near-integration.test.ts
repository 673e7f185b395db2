import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertSubmission } from "../../../test/factories.ts";
import { startFakeNearRpc } from "../../../test/fakes/near-rpc.ts";
import { startTestServer, type TestServer } from "../../../test/harness.ts";
import { nearSecretKey, newKey } from "../../../test/near.ts";
import { sessionHeaders, signIn } from "../../../test/session.ts";
import { processingJobs } from "../../db/schema.ts";

/**
 * A feed's NEAR integration settings (`integrations.near`): accepted with the key only as a placeholder, and used
 * by a NEAR Social distributor for each field its own config leaves out, all the way to the signed transaction.
 */
let server: TestServer;
let rpc: Awaited<ReturnType<typeof startFakeNearRpc>>;
let cookie: string;
const parentKey = newKey();
const ownKey = newKey();

const feedConfig = (id: string, extra: Record<string, unknown>, distributor: Record<string, unknown>) => ({
  id,
  name: `Feed ${id}`,
  description: "Posts to NEAR Social",
  outputs: {
    stream: {
      enabled: true,
      transform: [{ plugin: "@curate/object-transform", config: { mappings: { title: "{{content}}" } } }],
      distribute: [{ plugin: "@curate/near-social", ...distributor }],
    },
  },
  ...extra,
});

beforeAll(async () => {
  rpc = await startFakeNearRpc({
    socialContract: "v1.social08.testnet",
    accounts: [
      { id: "parent.testnet", keys: [{ publicKey: parentKey.publicKey }] },
      { id: "own.testnet", keys: [{ publicKey: ownKey.publicKey }] },
    ],
  });
  server = await startTestServer(
    {
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      PLUGIN_SECRETS: "NEAR_PARENT_KEY,NEAR_OWN_KEY",
      NEAR_PARENT_KEY: nearSecretKey(parentKey),
      NEAR_OWN_KEY: nearSecretKey(ownKey),
      // The feed names its own RPC node: a chosen address, so a local fake must be allowed by name.
      PRIVATE_HOSTS_ALLOWED: "127.0.0.1",
    },
    { worker: {} },
  );
  cookie = (await signIn(server)).cookie;
});

afterAll(async () => {
  await server?.close();
  await rpc?.close();
});

const near = () => ({
  parentAccountId: "parent.testnet",
  parentKeyPair: "{{NEAR_PARENT_KEY}}",
  networkId: "testnet",
  rpcUrl: rpc.url,
});

const createFeed = (config: unknown) =>
  server.json("/api/feeds", {
    method: "POST",
    headers: sessionHeaders(server, cookie),
    body: JSON.stringify(config),
  });

async function approveAndFinish(feedId: string) {
  const { tweetId } = await insertSubmission(server.db, {
    content: `News for ${feedId}`,
    feeds: [{ feedId }],
  });
  const { body } = await server.json("/api/moderate", {
    method: "POST",
    headers: sessionHeaders(server, cookie),
    body: JSON.stringify({ submissionId: tweetId, feedId, action: "approve" }),
  });
  const jobId = body.data.processingJobId as string;
  await expect
    .poll(async () => {
      const [job] = await server.db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
      return job?.status;
    })
    .toMatch(/^(completed|failed|completed_with_errors)$/);
  const steps = await server.json(`/api/processing/jobs/${jobId}/steps`, {
    headers: sessionHeaders(server, cookie),
  });
  return { jobId, steps: steps.body.data.steps as Array<Record<string, unknown>> };
}

describe("NEAR integration settings", () => {
  it("are accepted with the key as a placeholder only, and are what a distributor without an account needs", async () => {
    const raw = await createFeed(
      feedConfig(
        "rawkey",
        { integrations: { near: { ...near(), parentKeyPair: nearSecretKey(parentKey) } } },
        {},
      ),
    );
    expect(raw.status).toBe(400);
    expect(raw.body.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "integrations.near.parentKeyPair" })]),
    );
    expect(JSON.stringify(raw.body)).not.toContain(nearSecretKey(parentKey));

    const orphan = await createFeed(feedConfig("orphan", {}, { config: {} }));
    expect(orphan.status).toBe(400);
    expect(orphan.body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "outputs.stream.distribute.0.config.accountId" }),
      ]),
    );

    const bad = await createFeed(
      feedConfig("badnet", { integrations: { near: { ...near(), networkId: "devnet" } } }, {}),
    );
    expect(bad.status).toBe(400);

    const created = await createFeed(
      feedConfig("parented", { integrations: { near: near() } }, { config: {} }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data.config.integrations).toEqual({ near: near() });
  });

  it("sign the NEAR Social post as the parent account, on its network and node, when the distributor names none", async () => {
    const { steps } = await approveAndFinish("parented");
    const distribution = steps.find((step) => step.type === "distribution");
    expect(distribution).toMatchObject({ status: "success" });
    // The step shows what it ran with: the settings it took, the key still a placeholder.
    expect(distribution?.config).toEqual({
      accountId: "parent.testnet",
      privateKey: "{{NEAR_PARENT_KEY}}",
      networkId: "testnet",
      rpcUrl: rpc.url,
    });
    const [tx] = rpc.received.slice(-1);
    expect(tx).toMatchObject({
      signatureValid: true,
      signerId: "parent.testnet",
      publicKey: parentKey.publicKey,
      receiverId: "v1.social08.testnet",
    });
  });

  it("give way to the distributor's own fields", async () => {
    const created = await createFeed(
      feedConfig(
        "ownaccount",
        { integrations: { near: near() } },
        { config: { accountId: "own.testnet", privateKey: "{{NEAR_OWN_KEY}}" } },
      ),
    );
    expect(created.status).toBe(201);
    const { steps } = await approveAndFinish("ownaccount");
    expect(steps.find((step) => step.type === "distribution")).toMatchObject({ status: "success" });
    const [tx] = rpc.received.slice(-1);
    expect(tx).toMatchObject({ signerId: "own.testnet", publicKey: ownKey.publicKey });
  });
});
