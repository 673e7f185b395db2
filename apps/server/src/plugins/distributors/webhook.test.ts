import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startWebhookReceiver } from "../../../test/fakes/webhook.ts";
import { distribute, distributionContext, failure, stepConfig } from "../../../test/plugins.ts";
import { CREDENTIALS_REJECTED, PluginError } from "../types.ts";
import { createWebhookDistributor } from "./webhook.ts";

const SECRET = "whsec_shared_between_feed_and_receiver";
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const plugin = createWebhookDistributor({ allowedHosts: ["127.0.0.1"] });

const configOf = (config: Record<string, unknown> = {}, secret = SECRET) =>
  stepConfig(
    plugin,
    { url: receiver.url, secret: "{{HOOK_SECRET}}", ...config },
    { feed: { HOOK_SECRET: secret } },
  );

const item = { title: "Solar got cheaper", content: "Panels fell 20%.", url: "https://x.com/amy/status/1" };
const context = distributionContext({ feedId: "solar", idempotencyKey: "b".repeat(64) });

beforeAll(async () => {
  receiver = await startWebhookReceiver(SECRET);
});
afterAll(() => receiver.close());
beforeEach(() => receiver.reset());

describe("webhook distributor", () => {
  it("posts the item as signed JSON with the delivery id, event and timestamp headers", async () => {
    const { rendered, receipt } = await distribute(plugin, item, configOf(), context);
    expect(rendered).toEqual({
      action: "POST",
      request: {
        url: receiver.url,
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "Curate-Webhook/1",
          "X-Curate-Event": "item.published",
          "X-Curate-Delivery": "b".repeat(64),
        },
        body: JSON.stringify({
          event: "item.published",
          delivery: "b".repeat(64),
          feedId: "solar",
          submissionId: context.submissionId,
          data: item,
        }),
      },
    });
    expect(receiver.refused).toEqual([]);
    expect(receiver.deliveries).toHaveLength(1);
    const [delivery] = receiver.deliveries;
    expect(delivery.raw).toBe((rendered.request as { body: string }).body);
    expect(delivery.event).toBe("item.published");
    expect(Math.abs(delivery.timestamp - Date.now() / 1000)).toBeLessThan(5);
    expect(receiver.requests[0].headers["x-curate-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(receipt).toEqual({
      status: 202,
      reference: { kind: "webhook-delivery", id: "b".repeat(64), url: receiver.url },
    });
  });

  it("delivers a hostile item byte for byte, signed over the raw UTF-8 body", async () => {
    const hostile = {
      title: "<script>alert(1)</script> ]]> \u202Egnp.exe",
      content: '**bold** [x](javascript:alert(1)) \u2028 👩‍👩‍👧 "quoted" \\ مرحبا',
    };
    await distribute(plugin, hostile, configOf({ event: "feed.solar" }), context);
    expect(receiver.refused).toEqual([]);
    expect(receiver.deliveries[0]).toMatchObject({ event: "feed.solar", body: { data: hostile } });
  });

  it("delivers an over-long item whole", async () => {
    const long = { ...item, content: "Solar ☀️ ".repeat(40_000) };
    await distribute(plugin, long, configOf(), context);
    expect(receiver.refused).toEqual([]);
    expect(receiver.deliveries[0].body.data.content).toBe(long.content);
  });

  it("sends a retried publication with the same delivery id and a fresh signature", async () => {
    await distribute(plugin, item, configOf(), context);
    await distribute(plugin, item, configOf(), context);
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests.map((r) => r.headers["x-curate-delivery"])).toEqual([
      "b".repeat(64),
      "b".repeat(64),
    ]);
    expect(receiver.deliveries).toHaveLength(1);
  });

  it("takes its signing secret only from the feed's own secrets", () => {
    expect(() =>
      stepConfig(
        plugin,
        { url: receiver.url, secret: "{{HOOK_SECRET}}" },
        { server: { HOOK_SECRET: SECRET } },
      ),
    ).toThrow(PluginError);
  });
});

describe("webhook errors", () => {
  const send = (config: Record<string, unknown> = {}, secret?: string) =>
    failure(distribute(plugin, item, configOf(config, secret), context));

  it("retries outages and rate limits, honouring Retry-After", async () => {
    receiver.answerNext({ status: 503, headers: { "Retry-After": "3" }, body: "busy" });
    expect(await send()).toMatchObject({ code: "WEBHOOK_UNAVAILABLE", retryable: true, retryAfterMs: 3000 });
    receiver.answerNext({ status: 429, body: "slow down" });
    expect(await send()).toMatchObject({ code: "WEBHOOK_UNAVAILABLE", retryable: true });
    receiver.answerNext({ hang: true });
    expect(await send({ timeoutMs: 1000 })).toMatchObject({
      code: "WEBHOOK_UNAVAILABLE",
      retryable: true,
      message: expect.stringMatching(/timed out/),
    });
  });

  it("a refused signature is CREDENTIALS_REJECTED, pointing at the secret", async () => {
    const error = await send({}, "not-the-shared-secret");
    expect(receiver.refused[0].reason).toBe("bad signature");
    expect(error).toMatchObject({ code: CREDENTIALS_REJECTED, retryable: false });
    expect(error.message).toMatch(/same secret/);
  });

  it("a missing endpoint, a refusal and a redirect are final, and the redirect is not followed", async () => {
    expect(await send({ url: `${receiver.baseUrl}/gone` })).toMatchObject({
      code: "WEBHOOK_NOT_FOUND",
      retryable: false,
    });
    receiver.answerNext({ status: 422, body: { error: "unknown event" } });
    expect(await send()).toMatchObject({
      code: "WEBHOOK_REJECTED",
      retryable: false,
      message: expect.stringMatching(/422.*unknown event/),
    });
    receiver.reset();
    receiver.answerNext({ status: 302, headers: { Location: "http://169.254.169.254/latest" } });
    const redirected = await send();
    expect(redirected).toMatchObject({ code: "WEBHOOK_REDIRECTED", retryable: false });
    expect(redirected.message).toMatch(/set url to the final address/);
    expect(receiver.requests).toHaveLength(1);
  });

  it("an unreachable receiver is retryable", async () => {
    expect(await send({ url: "http://127.0.0.1:9/hook" })).toMatchObject({
      code: "WEBHOOK_UNAVAILABLE",
      retryable: true,
    });
  });
});

describe("webhook URLs a feed may choose", () => {
  const guarded = createWebhookDistributor({ allowedHosts: [] });

  it.each([
    "http://127.0.0.1:8080/hook",
    "http://localhost/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://10.1.2.3/hook",
    "http://192.168.0.10/hook",
    "http://[::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[fd00::1]/hook",
    "http://0.0.0.0/hook",
  ])("refuses %s unless the operator allows the host", async (url) => {
    const config = stepConfig(guarded, { url, secret: "{{HOOK_SECRET}}" }, { feed: { HOOK_SECRET: SECRET } });
    const error = await failure(distribute(guarded, item, config, context));
    expect(error).toMatchObject({ code: "WEBHOOK_URL_REFUSED", retryable: false });
    expect(error.message).toMatch(/PRIVATE_HOSTS_ALLOWED/);
  });

  it.each(["ftp://example.com/hook", "file:///etc/passwd", "javascript:alert(1)", "not a url"])(
    "refuses %s at save time",
    (url) => {
      expect(guarded.configSchema.safeParse({ url, secret: "{{HOOK_SECRET}}" }).success).toBe(false);
    },
  );
});
