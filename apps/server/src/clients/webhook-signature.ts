import { createHmac } from "node:crypto";

/**
 * `sha256=` and the hex HMAC-SHA256 of `<timestamp>.<raw body>` under the shared secret (docs/plugins.md): how the
 * webhook channel and the operator's alert webhook sign what they deliver, so one receiver checks both alike.
 */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}
