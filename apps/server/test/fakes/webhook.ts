import { createHmac, timingSafeEqual } from "node:crypto";
import { answerQueue, type FakeAnswer, type ReceivedRequest, startFakeServer } from "./server.ts";

export interface ReceivedDelivery {
  id: string;
  event: string;
  timestamp: number;
  // biome-ignore lint/suspicious/noExplicitAny: the delivered JSON, checked by assertion
  body: any;
  raw: string;
}

/**
 * A webhook receiver that does what docs/plugins.md asks of one: it checks `X-Curate-Signature` against the
 * HMAC-SHA256 of `<X-Curate-Timestamp>.<raw body>` under the shared secret, refuses timestamps outside a
 * five-minute window (401), and accepts a delivery id it has seen once more without keeping it twice. It keeps the
 * items it was given as a receiver's store would: `item.published` adds one per delivery id, `item.updated`
 * replaces the item of its delivery id, `item.retracted` removes the one it names.
 */
export async function startWebhookReceiver(secret: string) {
  const deliveries: ReceivedDelivery[] = [];
  /** Updates applied, in order. */
  const updates: ReceivedDelivery[] = [];
  /** The receiver's items, by the delivery id that published them. */
  // biome-ignore lint/suspicious/noExplicitAny: the delivered data, checked by assertion
  const items = new Map<string, any>();
  const refused: Array<{ reason: string; request: ReceivedRequest }> = [];
  const queue = answerQueue();

  const verify = (request: ReceivedRequest): string | null => {
    const timestamp = String(request.headers["x-curate-timestamp"] ?? "");
    const signature = String(request.headers["x-curate-signature"] ?? "");
    if (!/^\d+$/.test(timestamp)) return "no timestamp";
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return "timestamp outside the replay window";
    const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${request.raw}`).digest("hex")}`;
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected)))
      return "bad signature";
    return null;
  };

  const handle = (request: ReceivedRequest): FakeAnswer => {
    const queued = queue.next();
    if (queued) return queued;
    if (request.method !== "POST" || request.path !== "/hooks/curate")
      return { status: 404, body: "no such hook" };
    const reason = verify(request);
    if (reason) {
      refused.push({ reason, request });
      return { status: 401, body: { error: reason } };
    }
    const id = String(request.headers["x-curate-delivery"]);
    const delivery: ReceivedDelivery = {
      id,
      event: String(request.headers["x-curate-event"]),
      timestamp: Number(request.headers["x-curate-timestamp"]),
      body: request.body,
      raw: request.raw,
    };
    if (delivery.event === "item.updated") {
      updates.push(delivery);
      items.set(id, request.body?.data);
    } else if (!deliveries.some((known) => known.id === id)) {
      deliveries.push(delivery);
      if (delivery.event === "item.retracted") items.delete(String(request.body?.data?.delivery));
      else items.set(id, request.body?.data);
    }
    return { status: 202, body: { received: id } };
  };

  const server = await startFakeServer(handle);
  return {
    url: `${server.url}/hooks/curate`,
    baseUrl: server.url,
    requests: server.requests,
    deliveries,
    updates,
    items,
    refused,
    /** The next request gets this answer instead (a 503, a redirect, …). */
    answerNext(answer: FakeAnswer) {
      queue.push(answer);
    },
    reset() {
      deliveries.length = 0;
      updates.length = 0;
      items.clear();
      refused.length = 0;
      server.requests.length = 0;
      queue.clear();
    },
    close: server.close,
  };
}
