import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeNearRpc } from "../../../test/fakes/near-rpc.ts";
import { nearSecretKey, newKey } from "../../../test/near.ts";
import { distribute, distributionContext, failure, stepConfig } from "../../../test/plugins.ts";
import { CREDENTIALS_REJECTED } from "../types.ts";
import { createNearSocialDistributor, NEAR_SOCIAL_TEXT_LIMIT, type NearSocialCall } from "./near-social.ts";

const owner = newKey();
const posterKey = newKey();
const otherContractKey = newKey();
const strangerKey = newKey();
let rpc: Awaited<ReturnType<typeof startFakeNearRpc>>;
let plugin: ReturnType<typeof createNearSocialDistributor>;

const configOf = (config: Record<string, unknown> = {}, key = owner) =>
  stepConfig(
    plugin,
    { accountId: "curate.near", privateKey: "{{NEAR_SOCIAL_KEY}}", ...config },
    { server: { NEAR_SOCIAL_KEY: nearSecretKey(key) } },
  );

const item = {
  title: "Solar got cheaper",
  content: "Panels fell 20% this year.",
  url: "https://x.com/amy/status/1900000000000000001",
  tags: ["Solar", "clean energy", "solar"],
};

const mainOf = (call: NearSocialCall) => JSON.parse(call.args.data[call.signerId].post.main);

beforeAll(async () => {
  rpc = await startFakeNearRpc({
    accounts: [
      {
        id: "curate.near",
        keys: [
          { publicKey: owner.publicKey },
          {
            publicKey: posterKey.publicKey,
            permission: {
              FunctionCall: {
                allowance: "250000000000000000000000",
                receiver_id: "social.near",
                method_names: ["set"],
              },
            },
          },
          {
            publicKey: otherContractKey.publicKey,
            permission: { FunctionCall: { allowance: null, receiver_id: "game.near", method_names: [] } },
          },
        ],
      },
      { id: "newcomer.near", keys: [{ publicKey: owner.publicKey }], noStorage: true },
    ],
  });
  plugin = createNearSocialDistributor({ rpcUrls: { mainnet: rpc.url, testnet: "http://127.0.0.1:9" } });
});
afterAll(() => rpc.close());
beforeEach(() => rpc.reset());

describe("NEAR Social distributor", () => {
  it("signs a set call on social.near in near.social's post format and sends it through the RPC", async () => {
    const { rendered, receipt } = await distribute(plugin, item, configOf());
    const text =
      "**Solar got cheaper**\n\nPanels fell 20% this year\\.\n\n<https://x.com/amy/status/1900000000000000001>";
    expect(rendered).toEqual({
      action: "functionCall",
      request: {
        signerId: "curate.near",
        receiverId: "social.near",
        methodName: "set",
        args: {
          data: {
            "curate.near": {
              post: { main: JSON.stringify({ type: "md", text }) },
              index: {
                post: JSON.stringify({ key: "main", value: { type: "md" } }),
                hashtag: JSON.stringify([
                  { key: "solar", value: { type: "social", path: "curate.near/post/main" } },
                  { key: "cleanenergy", value: { type: "social", path: "curate.near/post/main" } },
                ]),
              },
            },
          },
        },
        gas: "100000000000000",
        deposit: "0",
      },
    });
    expect(rpc.requests.map((r) => r.body.method)).toEqual(["query", "send_tx"]);
    expect(rpc.requests[0].body.params).toEqual({
      request_type: "view_access_key",
      finality: "final",
      account_id: "curate.near",
      public_key: owner.publicKey,
    });
    expect(rpc.requests[1].body.params.wait_until).toBe("EXECUTED_OPTIMISTIC");
    const [tx] = rpc.received;
    expect(tx).toMatchObject({
      signatureValid: true,
      signerId: "curate.near",
      publicKey: owner.publicKey,
      nonce: 8n,
      receiverId: "social.near",
      methodName: "set",
      gas: 100_000_000_000_000n,
      deposit: 0n,
    });
    expect(tx.args).toEqual((rendered.request as NearSocialCall).args);
    expect(receipt).toEqual({
      transactionHash: tx.hash,
      reference: { kind: "near-transaction", id: tx.hash, url: `https://nearblocks.io/txns/${tx.hash}` },
    });
  });

  it("posts with a function-call key for social.near, the next nonce each time", async () => {
    await distribute(plugin, "First", configOf({}, posterKey));
    await distribute(plugin, "Second", configOf({}, posterKey));
    expect(
      rpc.received.map((tx) => [tx.publicKey, tx.nonce, mainOf(tx as unknown as NearSocialCall).text]),
    ).toEqual([
      [posterKey.publicKey, 8n, "First"],
      [posterKey.publicKey, 9n, "Second"],
    ]);
  });

  it("escapes a hostile item's markdown and keeps the link whole", async () => {
    const hostile = {
      title: "<script>alert(1)</script> **x** \u202Egnp.exe",
      content: "[click](javascript:alert(1)) ]]> # not a heading 👩‍👩‍👧 مرحبا",
      url: "https://example.com/a_b*c",
    };
    const { rendered } = await distribute(plugin, hostile, configOf());
    expect(mainOf(rendered.request as NearSocialCall).text).toBe(
      "**\\<script\\>alert\\(1\\)\\</script\\> \\*\\*x\\*\\* gnp\\.exe**\n\n" +
        "\\[click\\]\\(javascript:alert\\(1\\)\\) \\]\\]\\> \\# not a heading 👩‍👩‍👧 مرحبا\n\n" +
        "<https://example.com/a_b*c>",
    );
    expect(rpc.received).toHaveLength(1);
  });

  it("keeps an over-long post within its limit, the body giving way to the link", async () => {
    const { rendered } = await distribute(plugin, { ...item, content: "Sun. ".repeat(5000) }, configOf());
    const { text } = mainOf(rendered.request as NearSocialCall);
    expect(text.length).toBeLessThanOrEqual(NEAR_SOCIAL_TEXT_LIMIT);
    expect(text).toMatch(/…\n\n<https:\/\/x\.com\/amy\/status\/1900000000000000001>$/);
  });

  it("writes to the testnet contract for networkId testnet", async () => {
    const { request } = await plugin.render(item, configOf({ networkId: "testnet" }), distributionContext());
    expect((request as NearSocialCall).receiverId).toBe("v1.social08.testnet");
  });

  it("finds a transaction whose answers were lost instead of posting again", async () => {
    rpc.loseAnswers(5);
    const { receipt } = await distribute(plugin, item, configOf());
    expect(rpc.received).toHaveLength(1);
    expect(rpc.requests.map((r) => r.body.method)).toEqual(["query", "send_tx", "send_tx", "tx"]);
    expect(receipt.transactionHash).toBe(rpc.received[0].hash);
  });
});

describe("NEAR Social errors say what to fix", () => {
  it("a key that is not the account's, or may not call social.near, or is no key at all", async () => {
    const stranger = await failure(distribute(plugin, item, configOf({}, strangerKey)));
    expect(stranger).toMatchObject({ code: CREDENTIALS_REJECTED, retryable: false });
    expect(stranger.message).toContain(`${strangerKey.publicKey} is not a key of curate.near`);
    const other = await failure(distribute(plugin, item, configOf({}, otherContractKey)));
    expect(other).toMatchObject({
      code: CREDENTIALS_REJECTED,
      message: expect.stringMatching(/may not call set on social\.near/),
    });
    expect(rpc.requests.every((r) => r.body.method === "query")).toBe(true);
    const garbage = stepConfig(
      plugin,
      { accountId: "curate.near", privateKey: "{{K}}" },
      { server: { K: "not-a-key" } },
    );
    const invalid = await failure(distribute(plugin, item, garbage));
    expect(invalid).toMatchObject({ code: "NEAR_KEY_INVALID", retryable: false });
    expect(invalid.message).not.toContain("not-a-key");
  });

  it("an account that does not exist, and one without storage on social.near", async () => {
    expect(await failure(distribute(plugin, item, configOf({ accountId: "nobody.near" })))).toMatchObject({
      code: "NEAR_ACCOUNT_NOT_FOUND",
      retryable: false,
    });
    const storage = await failure(distribute(plugin, item, configOf({ accountId: "newcomer.near" })));
    expect(storage).toMatchObject({ code: "NEAR_SOCIAL_REFUSED", retryable: false });
    expect(storage.message).toMatch(/Not enough storage balance.*post once from near\.social/);
  });

  it("an RPC node of the feed's choosing on a private address, which it never contacts", async () => {
    const refused = await failure(distribute(plugin, item, configOf({ rpcUrl: "http://10.0.0.7:3030" })));
    expect(refused).toMatchObject({ code: "NEAR_RPC_REFUSED", retryable: false });
    expect(refused.message).toBe(
      "The NEAR RPC node 10.0.0.7:3030 is not on a public address: name a public node in rpcUrl, or leave it out to use this server's.",
    );
    expect(rpc.requests).toEqual([]);
  });

  it("a used nonce, a failing node and an unreachable one are retryable", async () => {
    rpc.answerNext({
      status: 200,
      body: {
        jsonrpc: "2.0",
        id: 1,
        result: { nonce: 7, permission: "FullAccess", block_height: 1, block_hash: rpc.blockHash },
      },
    });
    rpc.answerNext({
      status: 200,
      body: {
        jsonrpc: "2.0",
        id: 2,
        error: {
          name: "HANDLER_ERROR",
          cause: { name: "INVALID_TRANSACTION", info: {} },
          code: -32000,
          message: "Server error",
          data: { TxExecutionError: { InvalidTxError: { InvalidNonce: { tx_nonce: 8, ak_nonce: 9 } } } },
        },
      },
    });
    expect(await failure(distribute(plugin, item, configOf()))).toMatchObject({
      code: "NEAR_RPC_UNAVAILABLE",
      retryable: true,
    });
    for (let i = 0; i < 2; i++) rpc.answerNext({ status: 500, body: "Internal Server Error" });
    expect(await failure(distribute(plugin, item, configOf()))).toMatchObject({
      code: "NEAR_RPC_UNAVAILABLE",
      retryable: true,
    });
    const away = createNearSocialDistributor({
      rpcUrls: { mainnet: "http://127.0.0.1:9", testnet: "http://127.0.0.1:9" },
    });
    expect(await failure(distribute(away, item, configOf()))).toMatchObject({
      code: "NEAR_RPC_UNAVAILABLE",
      retryable: true,
    });
  });
});
