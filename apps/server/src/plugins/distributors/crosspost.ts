import { createHash, randomBytes } from "node:crypto";
import {
  type CrosspostDistributorConfig,
  crosspostDistributorConfigSchema,
  encodeSignedMessageToken,
  NEP413_NONCE_LENGTH,
  nep413SigningBytes,
} from "@curate/core";
import { KeyPair, type KeyPairString } from "@near-js/crypto";
import { callExternal, ExternalServiceError } from "../../clients/http.ts";
import {
  CREDENTIALS_REJECTED,
  type DistributionReceipt,
  type DistributorPlugin,
  PluginError,
  type RetractionOutcome,
} from "../types.ts";
import { cutText, postFrom } from "./content.ts";

export interface CrosspostSettings {
  /** The Open Crosspost API (`CROSSPOST_API_URL`, `https://api.opencrosspost.com`). */
  apiUrl: string;
}

/** The service's answer envelope (its `@crosspost/types` ApiResponse with MultiStatusData). */
interface CrosspostAnswer {
  success?: boolean;
  data?: { results?: PostedDetail[]; errors?: ErrorDetail[] } | null;
  errors?: ErrorDetail[] | null;
  meta?: { rateLimit?: { reset?: number } };
}

/** What the service's NEAR authorization is signed for: its account, and the action. */
export const CROSSPOST_RECIPIENT = "crosspost.near";
export const CROSSPOST_MESSAGE = "createPost";
const DEFAULT_MAX_LENGTH = 280;
const TIMEOUT_MS = 30_000;

/** The create-post request (the service's `POST /api/post` body). */
export interface CrosspostRequest {
  targets: Array<{ platform: string; userId: string }>;
  content: Array<{ text: string }>;
}

/**
 * A NEP-413 signed-message token (the `near-sign-verify` format the service verifies): the nonce starts with the
 * time in milliseconds as 16 digits, which the service checks is recent (five minutes), then 16 random bytes.
 */
export function crosspostAuthToken(signerId: string, keyPair: KeyPair, now = Date.now()): string {
  const nonce = new Uint8Array(NEP413_NONCE_LENGTH);
  nonce.set(new TextEncoder().encode(String(now).padStart(16, "0")), 0);
  nonce.set(randomBytes(16), 16);
  const payload = { message: CROSSPOST_MESSAGE, nonce, recipient: CROSSPOST_RECIPIENT, callbackUrl: null };
  const digest = createHash("sha256").update(nep413SigningBytes(payload)).digest();
  const { signature } = keyPair.sign(new Uint8Array(digest));
  return encodeSignedMessageToken({
    ...payload,
    accountId: signerId,
    publicKey: keyPair.getPublicKey().toString(),
    signature: Buffer.from(signature).toString("base64"),
    state: null,
  });
}

/** Plain text (the networks show no markup): the feed's own text, else title, body and link; the body gives way. */
function textOf(input: unknown, max: number): string | null {
  const post = postFrom(input);
  if (post.text) return cutText(post.text, max);
  const link = post.link ? `\n\n${post.link}` : "";
  const head = [post.title, post.body].filter(Boolean).join("\n\n");
  if (!head) return post.link ? cutText(post.link, max) : null;
  return link.length < max - 1 ? `${cutText(head, max - link.length)}${link}` : cutText(head, max);
}

interface ErrorDetail {
  message?: string;
  code?: string;
  details?: { platform?: string; userId?: string; rateLimit?: { reset?: number } } & Record<string, unknown>;
}

interface PostedDetail {
  platform: string;
  userId: string;
  details?: { postId?: string; postUrl?: string; id?: string; url?: string };
  postId?: string;
  postUrl?: string;
}

/** The errors an answer carries: its own (a refused request), or its targets' (every target failed). */
function errorsOf(answer: CrosspostAnswer | null): ErrorDetail[] {
  if (Array.isArray(answer?.errors)) return answer.errors;
  if (Array.isArray(answer?.data?.errors)) return answer.data.errors;
  return [];
}

/** How long the service asks to wait: its rate limit's reset time (Unix seconds). */
function waitFrom(answer: CrosspostAnswer | null): number | null {
  const reset = [
    answer?.meta?.rateLimit?.reset,
    ...errorsOf(answer).map((e) => e.details?.rateLimit?.reset),
  ].find((r) => typeof r === "number");
  return reset ? Math.max(0, reset * 1000 - Date.now()) : null;
}

/** A refusal as a step error that says what to fix; only rate limits and outages are retryable. */
function refusal(errors: ErrorDetail[], status: number, signerId: string, wait?: number): PluginError {
  const said = (errors.length ? errors : [{ message: `answered ${status}` }])
    .map(
      (e) =>
        `${e.details?.platform ? `${e.details.platform}:${e.details.userId} ` : ""}${e.code ?? status}: ${e.message}`,
    )
    .join("; ");
  const codes = new Set(errors.map((e) => e.code));
  if (codes.has("RATE_LIMITED") || status === 429) {
    return new PluginError(`The Crosspost service is rate limiting this account (${said}).`, {
      code: "CROSSPOST_RATE_LIMITED",
      retryable: true,
      retryAfterMs: wait,
    });
  }
  if (codes.has("UNAUTHORIZED") || codes.has("FORBIDDEN") || status === 401 || status === 403) {
    return new PluginError(
      `The Crosspost service refused ${signerId} (${said}): authorize the account with the service, connect each target's account to it, and check keyPair's variable.`,
      { code: CREDENTIALS_REJECTED },
    );
  }
  if (codes.has("PLATFORM_UNAVAILABLE") || codes.has("NETWORK_ERROR") || status >= 500) {
    return new PluginError(`The Crosspost service or a network behind it failed (${said}).`, {
      code: "CROSSPOST_UNAVAILABLE",
      retryable: true,
    });
  }
  return new PluginError(`The Crosspost service refused the post (${said}).`, { code: "CROSSPOST_REJECTED" });
}

/**
 * A post on the configured networks through the Open Crosspost API (`POST {apiUrl}/api/post`), authorized by a
 * NEP-413 signature of `signerId`'s key. Not through `@crosspost/sdk`: its request helper keeps re-sending a POST in
 * the background after it has given up on it (async-retry's `bail` without `err.bail`), so a refused post could
 * still be published after the step reported the failure. The service cannot deduplicate a post; when some targets succeed and
 * others fail, the step succeeds (the posts exist, and a retry would post them twice) and its receipt lists the
 * failures.
 */
export function createCrosspostDistributor(
  settings: CrosspostSettings,
): DistributorPlugin<CrosspostDistributorConfig> {
  return {
    type: "distributor",
    name: "crosspost",
    configSchema: crosspostDistributorConfigSchema,
    throttle: (config) => [{ key: `signer:${config.signerId}`, intervalMs: 1000 }],
    async render(input, config) {
      const text = textOf(input, config.maxLength ?? DEFAULT_MAX_LENGTH);
      if (!text) {
        throw new PluginError(
          "There is nothing to post: give the item a title, content or link, or a text.",
          {
            code: "CROSSPOST_EMPTY_POST",
          },
        );
      }
      const request: CrosspostRequest = {
        targets: config.targets.map(({ platform, userId }) => ({ platform, userId })),
        content: [{ text }],
      };
      return { action: "createPost", request };
    },
    async send(rendered, config, context) {
      const request = rendered.request as CrosspostRequest;
      let keyPair: KeyPair;
      try {
        keyPair = KeyPair.fromString(config.keyPair as KeyPairString);
      } catch {
        throw new PluginError("keyPair's variable does not hold a NEAR key (ed25519:<base58>).", {
          code: "CROSSPOST_KEY_INVALID",
        });
      }
      // The service's own errors of a refused answer, kept as callExternal reads the wait from it.
      let refused: CrosspostAnswer | null = null;
      let response: Response;
      try {
        response = await callExternal(
          `${settings.apiUrl.replace(/\/+$/, "")}/api/post`,
          {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              Accept: "application/json",
              Authorization: `Bearer ${crosspostAuthToken(config.signerId, keyPair)}`,
            },
            body: JSON.stringify(request),
            signal: context.signal,
          },
          {
            service: "The Crosspost service",
            reach: "configured",
            timeoutMs: TIMEOUT_MS,
            retries: 0,
            waitHint: async (answer) => {
              refused = (await answer
                .clone()
                .json()
                .catch(() => null)) as CrosspostAnswer | null;
              return waitFrom(refused);
            },
          },
        );
      } catch (error) {
        if (!(error instanceof ExternalServiceError)) throw error;
        if (error.status === 0) {
          throw new PluginError(`${error.message.replace(/\s\(.*\)\.$/, "")}.`, {
            code: "CROSSPOST_UNAVAILABLE",
            retryable: true,
            cause: error,
          });
        }
        throw refusal(errorsOf(refused), error.status, config.signerId, error.retryAfterMs);
      }
      const answer = (await response.json().catch(() => null)) as CrosspostAnswer | null;
      if (!response.ok || !answer?.success || !answer.data) {
        throw refusal(errorsOf(answer), response.status, config.signerId);
      }
      const results = answer.data.results ?? [];
      const failed = answer.data.errors ?? [];
      if (results.length === 0) throw refusal(failed, 200, config.signerId);
      const posts = results.map((result) => ({
        platform: result.platform,
        userId: result.userId,
        id: result.details?.postId ?? result.details?.id ?? result.postId,
        url: result.details?.postUrl ?? result.details?.url ?? result.postUrl,
      }));
      if (failed.length) {
        context.logger.warn({ failed }, "some crosspost targets failed; the others were posted");
      }
      return {
        posts,
        ...(failed.length
          ? { failed: failed.map((e) => ({ ...e.details, code: e.code, message: e.message })) }
          : {}),
        reference: { kind: "crosspost", id: posts[0].id, url: posts[0].url },
      };
    },
    retract: async (receipt) => crosspostCannotRetract(receipt),
  };
}

/**
 * Retraction: the posts Crosspost made live on each target network under the signer's accounts, and this server
 * does not delete through Crosspost, so they are recorded as "cannot retract", naming where each one is.
 */
export function crosspostCannotRetract(receipt: DistributionReceipt): RetractionOutcome {
  const posts = Array.isArray(receipt.posts)
    ? (receipt.posts as Array<{ platform?: string; url?: string }>)
    : [];
  const where = posts.map((post) => post.url ?? post.platform).filter(Boolean);
  return {
    retracted: false,
    reason: `Posts made through Crosspost cannot be deleted from here${where.length ? `; delete them on each network: ${where.join(", ")}` : ""}.`,
  };
}
