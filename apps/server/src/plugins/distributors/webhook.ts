import { type WebhookDistributorConfig, webhookDistributorConfigSchema } from "@curate/core";
import { callExternal, ExternalServiceError } from "../../clients/http.ts";
import { BlockedUrlError } from "../../clients/outbound.ts";
import { webhookSignature } from "../../clients/webhook-signature.ts";
import {
  CREDENTIALS_REJECTED,
  type DistributionReceipt,
  type DistributorPlugin,
  type PluginContext,
  PluginError,
  type RetractionOutcome,
} from "../types.ts";

export interface WebhookSettings {
  /** Hosts a webhook may reach although they are not public (`PRIVATE_HOSTS_ALLOWED`). */
  allowedHosts: readonly string[];
}

export const DEFAULT_WEBHOOK_EVENT = "item.published";
/**
 * The event of a re-run (retry, reprocess, tweak) of a publication the receiver already has: the same
 * `X-Curate-Delivery` as that publication, so the receiver replaces the item instead of adding a second one.
 */
export const WEBHOOK_UPDATED_EVENT = "item.updated";
const DEFAULT_TIMEOUT_MS = 10_000;

/** The delivery this distributor sends, all but its time and signature (made when it is sent). */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  /** The JSON body exactly as sent and signed. */
  body: string;
}

function answerError(status: number, location: string | null, snippet: string): PluginError {
  if (status >= 300 && status < 400) {
    return new PluginError(
      `The receiver redirected the delivery (${status}${location ? ` to ${location}` : ""}); redirects are not followed: set url to the final address.`,
      { code: "WEBHOOK_REDIRECTED" },
    );
  }
  if (status === 401 || status === 403) {
    return new PluginError(
      `The receiver refused the delivery (${status}): check that it verifies signatures with the same secret as this feed's secret field.`,
      { code: CREDENTIALS_REJECTED },
    );
  }
  if (status === 404 || status === 410) {
    return new PluginError(`The receiver has no endpoint at this url (${status}): check url.`, {
      code: "WEBHOOK_NOT_FOUND",
    });
  }
  return new PluginError(`The receiver refused the delivery (${status})${snippet ? `: ${snippet}` : ""}`, {
    code: "WEBHOOK_REJECTED",
  });
}

/**
 * An HMAC-signed JSON POST to a URL the feed chooses (docs/plugins.md: "Receiving webhooks"). The delivery id is
 * the publication's idempotency key, the same on every retry, so a receiver can drop a delivery it already has; a
 * re-run of a publication the ledger holds sends that publication's delivery id again as `item.updated`. Only 408,
 * 425, 429, 5xx, timeouts and unreachable receivers are retried (by the engine, with backoff).
 */
export function createWebhookDistributor(
  settings: WebhookSettings,
): DistributorPlugin<WebhookDistributorConfig> {
  return {
    type: "distributor",
    name: "webhook",
    configSchema: webhookDistributorConfigSchema,
    // A receiver is somebody's small server: a few deliveries a second at most.
    throttle: (config) => [{ key: `host:${new URL(config.url).host}`, intervalMs: 200 }],
    async render(input, config, context) {
      const updates = context.replay ? updatedDelivery(context.replay.receipt) : null;
      const event = updates ? WEBHOOK_UPDATED_EVENT : (config.event ?? DEFAULT_WEBHOOK_EVENT);
      const delivery = updates ?? context.idempotencyKey ?? context.jobId;
      const request: WebhookRequest = {
        url: config.url,
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "Curate-Webhook/1",
          "X-Curate-Event": event,
          "X-Curate-Delivery": delivery,
        },
        body: JSON.stringify({
          event,
          delivery,
          feedId: context.feedId,
          submissionId: context.submissionId,
          data: input ?? null,
        }),
      };
      return updates ? { action: "POST (update)", request, edits: true } : { action: "POST", request };
    },
    async send(rendered, config, context) {
      const request = rendered.request as WebhookRequest;
      const timestamp = String(Math.floor(Date.now() / 1000));
      const init: RequestInit = {
        method: "POST",
        headers: {
          ...request.headers,
          "X-Curate-Timestamp": timestamp,
          "X-Curate-Signature": webhookSignature(config.secret, timestamp, request.body),
        },
        body: request.body,
        signal: context.signal,
      };
      let response: Response;
      try {
        response = await callExternal(request.url, init, {
          service: "The webhook receiver",
          timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          retries: 0,
          reach: { privateHostsAllowed: settings.allowedHosts },
        });
      } catch (error) {
        if (error instanceof BlockedUrlError) {
          throw new PluginError(error.message, { code: "WEBHOOK_URL_REFUSED" });
        }
        if (error instanceof ExternalServiceError) {
          throw new PluginError(error.message, {
            code: "WEBHOOK_UNAVAILABLE",
            retryable: true,
            retryAfterMs: error.retryAfterMs,
            cause: error,
          });
        }
        throw error;
      }
      const text = await response.text().catch(() => "");
      if (!response.ok) {
        throw answerError(response.status, response.headers.get("location"), text.trim().slice(0, 200));
      }
      return {
        status: response.status,
        ...(rendered.edits ? { updated: true } : {}),
        reference: { kind: "webhook-delivery", id: request.headers["X-Curate-Delivery"], url: request.url },
      };
    },
    retract: (receipt, config, context) => retractWebhookDelivery(settings, receipt, config, context),
  };
}

/** The delivery id of the publication a re-run updates, from its receipt; null when it was not recorded. */
function updatedDelivery(receipt: DistributionReceipt): string | null {
  const id = receipt.reference?.kind === "webhook-delivery" ? receipt.reference.id : undefined;
  return typeof id === "string" && id ? id : null;
}

/** The event a retraction delivers, so the receiver can take the item down itself. */
export const WEBHOOK_RETRACTED_EVENT = "item.retracted";

/**
 * Retraction: a signed `item.retracted` delivery to the same URL, naming the delivery it takes back in `data`. Its
 * own delivery id is the original's plus `:retracted`, the same on every retry, so a receiver drops repeats.
 */
export async function retractWebhookDelivery(
  settings: WebhookSettings,
  receipt: DistributionReceipt,
  config: WebhookDistributorConfig,
  context: PluginContext,
): Promise<RetractionOutcome> {
  const original = receipt.reference?.id;
  if (!original) {
    return {
      retracted: false,
      reason: "The delivery's id was not recorded, so the receiver cannot be told which one to remove.",
    };
  }
  const delivery = `${original}:retracted`;
  const request: WebhookRequest = {
    url: config.url,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "Curate-Webhook/1",
      "X-Curate-Event": WEBHOOK_RETRACTED_EVENT,
      "X-Curate-Delivery": delivery,
    },
    body: JSON.stringify({
      event: WEBHOOK_RETRACTED_EVENT,
      delivery,
      feedId: context.feedId,
      submissionId: context.submissionId,
      data: { delivery: original },
    }),
  };
  await createWebhookDistributor(settings).send({ action: "POST", request }, config, context);
  return { retracted: true, delivery };
}
