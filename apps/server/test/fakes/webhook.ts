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
 * five-minute window (401), and accepts a delivery id it has seen once more without keeping it twice.
 */
export async function startWebhookReceiver(secret: string) {
  const deliveries: ReceivedDelivery[] = [];
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
    if (!deliveries.some((delivery) => delivery.id === id)) {
      deliveries.push({
        id,
        event: String(request.headers["x-curate-event"]),
        timestamp: Number(request.headers["x-curate-timestamp"]),
        body: request.body,
        raw: request.raw,
      });
    }
    return { status: 202, body: { received: id } };
  };

  const server = await startFakeServer(handle);
  return {
    url: `${server.url}/hooks/curate`,
    baseUrl: server.url,
    requests: server.requests,
    deliveries,
    refused,
    /** The next request gets this answer instead (a 503, a redirect, …). */
    answerNext(answer: FakeAnswer) {
      queue.push(answer);
    },
    reset() {
      deliveries.length = 0;
      refused.length = 0;
      server.requests.length = 0;
      queue.clear();
    },
    close: server.close,
  };
}
