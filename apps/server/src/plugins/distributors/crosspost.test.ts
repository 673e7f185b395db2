import { decodeSignedMessageToken } from "@curate/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeCrosspost } from "../../../test/fakes/crosspost.ts";
import { nearSecretKey, newKey } from "../../../test/near.ts";
import { distribute, failure, stepConfig } from "../../../test/plugins.ts";
import { CREDENTIALS_REJECTED } from "../types.ts";
import { createCrosspostDistributor } from "./crosspost.ts";

const signer = newKey();
const stranger = newKey();
let crosspost: Awaited<ReturnType<typeof startFakeCrosspost>>;
let plugin: ReturnType<typeof createCrosspostDistributor>;

const TARGET = { platform: "twitter", userId: "1500000000000000001" };
const configOf = (config: Record<string, unknown> = {}, key = signer) =>
  stepConfig(
    plugin,
    { signerId: "curate.near", keyPair: "{{CROSSPOST_KEY}}", targets: [TARGET], ...config },
    { server: { CROSSPOST_KEY: nearSecretKey(key) } },
  );

const item = {
  title: "Solar got cheaper",
  content: "Panels fell 20% this year.",
  url: "https://x.com/amy/status/1900000000000000001",
};

beforeAll(async () => {
  crosspost = await startFakeCrosspost({
    accounts: {
      "curate.near": {
        keys: [signer.publicKey],
        targets: [TARGET, { platform: "twitter", userId: "1500000000000000002" }],
      },
    },
  });
  plugin = createCrosspostDistributor({ apiUrl: crosspost.url });
});
afterAll(() => crosspost.close());
beforeEach(() => crosspost.reset());

describe("Crosspost distributor", () => {
  it("posts the item to the targets with a NEAR-signed authorization and names the post", async () => {
    const { rendered, receipt } = await distribute(plugin, item, configOf());
    const text =
      "Solar got cheaper\n\nPanels fell 20% this year.\n\nhttps://x.com/amy/status/1900000000000000001";
    expect(rendered).toEqual({ action: "createPost", request: { targets: [TARGET], content: [{ text }] } });
    const [request] = crosspost.requests;
    expect(`${request.method} ${request.path}`).toBe("POST /api/post");
    expect(request.body).toEqual(rendered.request);
    const token = decodeSignedMessageToken(String(request.headers.authorization).replace(/^Bearer /, ""));
    expect(token).toMatchObject({
      accountId: "curate.near",
      publicKey: signer.publicKey,
      message: "createPost",
      recipient: "crosspost.near",
      callbackUrl: null,
    });
    expect(Math.abs(Number(new TextDecoder().decode(token.nonce.slice(0, 16))) - Date.now())).toBeLessThan(
      5000,
    );
    expect(crosspost.posts).toEqual([
      { signerId: "curate.near", ...TARGET, text, postId: expect.any(String) },
    ]);
    const postId = crosspost.posts[0].postId;
    expect(receipt).toEqual({
      posts: [{ ...TARGET, id: postId, url: `https://x.com/i/web/status/${postId}` }],
      reference: { kind: "crosspost", id: postId, url: `https://x.com/i/web/status/${postId}` },
    });
  });

  it("sends a hostile item as plain text, bidi overrides removed", async () => {
    const hostile = {
      title: "<script>alert(1)</script> **x** ]]>",
      content: "\u202Egnp.exe 👩‍👩‍👧 @everyone",
    };
    await distribute(plugin, hostile, configOf());
    expect(crosspost.posts[0].text).toBe("<script>alert(1)</script> **x** ]]>\n\ngnp.exe 👩‍👩‍👧 @everyone");
  });

  it("keeps an over-long item to the length limit, the link kept", async () => {
    const { rendered } = await distribute(
      plugin,
      { ...item, content: "Sun and wind. ".repeat(100) },
      configOf(),
    );
    const [{ text }] = (rendered.request as { content: Array<{ text: string }> }).content;
    expect(text.length).toBeLessThanOrEqual(280);
    expect(text).toMatch(/…\n\nhttps:\/\/x\.com\/amy\/status\/1900000000000000001$/);
    expect(crosspost.posts).toHaveLength(1);
  });

  it("succeeds when some targets were posted, listing the ones that failed", async () => {
    const { receipt } = await distribute(
      plugin,
      item,
      configOf({ targets: [TARGET, { platform: "twitter", userId: "1500000000000000009" }] }),
    );
    expect(crosspost.posts).toHaveLength(1);
    expect(receipt).toMatchObject({
      posts: [{ userId: TARGET.userId }],
      failed: [
        {
          platform: "twitter",
          userId: "1500000000000000009",
          code: "UNAUTHORIZED",
          message: "No connected twitter account found for user ID 1500000000000000009",
        },
      ],
    });
  });
});

describe("Crosspost errors say what to fix", () => {
  it("a key the account does not have, a target not connected, a key that is no key", async () => {
    const key = await failure(distribute(plugin, item, configOf({}, stranger)));
    expect(key).toMatchObject({ code: CREDENTIALS_REJECTED, retryable: false });
    expect(key.message).toMatch(/refused curate\.near.*NEAR authentication failed.*authorize the account/);
    const target = await failure(
      distribute(
        plugin,
        item,
        configOf({ targets: [{ platform: "twitter", userId: "1500000000000000009" }] }),
      ),
    );
    expect(target).toMatchObject({ code: CREDENTIALS_REJECTED });
    expect(target.message).toMatch(
      /No connected twitter account found for user ID 1500000000000000009.*connect/,
    );
    const garbage = stepConfig(
      plugin,
      { signerId: "curate.near", keyPair: "{{K}}", targets: [TARGET] },
      { server: { K: "nope" } },
    );
    expect(await failure(distribute(plugin, item, garbage))).toMatchObject({ code: "CROSSPOST_KEY_INVALID" });
  });

  it("a platform's refusal is final; its rate limit and outages are retryable", async () => {
    const long = await failure(
      distribute(plugin, { ...item, content: "x".repeat(900) }, configOf({ maxLength: 1000 })),
    );
    expect(long).toMatchObject({
      code: "CROSSPOST_REJECTED",
      retryable: false,
      message: expect.stringMatching(/Text is too long/),
    });
    const reset = Math.floor(Date.now() / 1000) + 60;
    crosspost.failNextTarget({
      message: "Rate limit reached for twitter.",
      code: "RATE_LIMITED",
      recoverable: true,
      details: { rateLimit: { reset } },
    });
    const limited = await failure(distribute(plugin, item, configOf()));
    expect(limited).toMatchObject({ code: "CROSSPOST_RATE_LIMITED", retryable: true });
    expect(limited.retryAfterMs).toBeGreaterThan(50_000);
    crosspost.failNextTarget({
      message: "Twitter is over capacity",
      code: "PLATFORM_UNAVAILABLE",
      recoverable: true,
    });
    expect(await failure(distribute(plugin, item, configOf()))).toMatchObject({
      code: "CROSSPOST_UNAVAILABLE",
      retryable: true,
    });
  });

  it("an unreachable service is retryable", async () => {
    const away = createCrosspostDistributor({ apiUrl: "http://127.0.0.1:9" });
    expect(await failure(distribute(away, item, configOf()))).toMatchObject({
      code: "CROSSPOST_UNAVAILABLE",
      retryable: true,
      message: "The Crosspost service could not be reached.",
    });
  });

  it("sends a refused post once: nothing is re-sent behind the step's back", async () => {
    crosspost.failNextTarget({
      message: "Twitter is over capacity",
      code: "PLATFORM_UNAVAILABLE",
      recoverable: true,
    });
    await failure(distribute(plugin, item, configOf()));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(crosspost.requests).toHaveLength(1);
    expect(crosspost.posts).toHaveLength(0);
  });
});
