import { createHash, randomUUID } from "node:crypto";
import { base58Decode, base64Decode, decodeSignedMessageToken, nep413SigningBytes } from "@curate/core";
import { ed25519 } from "@noble/curves/ed25519.js";
import { answerQueue, type FakeAnswer, type ReceivedRequest, startFakeServer } from "./server.ts";

/**
 * A local Open Crosspost API: `POST /api/post` with `Authorization: Bearer <near-sign-verify token>`. As the
 * service does, it verifies the token (NEP-413 ed25519 signature over sha256, a nonce whose first 16 bytes are a
 * millisecond time at most five minutes old, a key that belongs to the account — here from its own table rather
 * than a key indexer), requires the NEAR account to be authorized, and posts to each target the account has
 * connected. Answers are the service's envelopes: `{ success, data: { summary, results, errors }, meta }` (200,
 * 207 when some targets fail, the first error's status when all do) and `{ success: false, errors, meta }`.
 */

export interface CrosspostPost {
  signerId: string;
  platform: string;
  userId: string;
  text: string;
  postId: string;
}

interface ErrorDetail {
  message: string;
  code: string;
  recoverable: boolean;
  details?: Record<string, unknown>;
}

const STATUS_OF: Record<string, number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  VALIDATION_ERROR: 400,
  RATE_LIMITED: 429,
  DUPLICATE_CONTENT: 400,
  PLATFORM_ERROR: 502,
  PLATFORM_UNAVAILABLE: 503,
};

const meta = () => ({ requestId: randomUUID(), timestamp: new Date().toISOString() });

const failure = (status: number, errors: ErrorDetail[]): FakeAnswer => ({
  status,
  body: { success: false, errors, meta: meta() },
});

export async function startFakeCrosspost(options: {
  /** account → its keys ("ed25519:…") and connected targets. */
  accounts: Record<
    string,
    { keys: string[]; targets: Array<{ platform: string; userId: string; username?: string }> }
  >;
}) {
  const posts: CrosspostPost[] = [];
  const queue = answerQueue();
  const targetQueue: ErrorDetail[] = [];
  let nextPost = 1900000000000000100n;

  function authenticate(request: ReceivedRequest): string | ErrorDetail {
    const header = String(request.headers.authorization ?? "");
    const refuse = (why: string): ErrorDetail => ({
      message: "NEAR authentication failed",
      code: "UNAUTHORIZED",
      recoverable: false,
      details: { originalError: why },
    });
    if (!header.startsWith("Bearer ")) return refuse("Missing or invalid Authorization header");
    let token: ReturnType<typeof decodeSignedMessageToken>;
    try {
      token = decodeSignedMessageToken(header.slice(7));
    } catch {
      return refuse("Invalid auth token");
    }
    const sentAt = Number(new TextDecoder().decode(token.nonce.slice(0, 16)));
    if (!Number.isFinite(sentAt) || Date.now() - sentAt > 300_000 || sentAt > Date.now()) {
      return refuse("Nonce validation failed: Nonce has expired");
    }
    const digest = createHash("sha256").update(nep413SigningBytes(token)).digest();
    const valid =
      token.publicKey.startsWith("ed25519:") &&
      ed25519.verify(base64Decode(token.signature), digest, base58Decode(token.publicKey.slice(8)));
    if (!valid) return refuse("Cryptographic signature verification failed");
    const account = options.accounts[token.accountId];
    if (!account?.keys.includes(token.publicKey)) {
      return refuse("Public key ownership verification failed: public key not associated with the account.");
    }
    return token.accountId;
  }

  const handle = (request: ReceivedRequest): FakeAnswer => {
    const queued = queue.next();
    if (queued) return queued;
    if (request.method === "GET" && request.path === "/api/auth/accounts") {
      // Reads name the account in a header; Crosspost answers only with what that account connected.
      const account = options.accounts[String(request.headers["x-near-account"] ?? "")];
      if (!account) {
        return failure(401, [
          { message: "NEAR account not authorized", code: "UNAUTHORIZED", recoverable: false },
        ]);
      }
      return {
        status: 200,
        body: {
          success: true,
          data: {
            accounts: account.targets.map((target) => ({
              platform: target.platform,
              userId: target.userId,
              connectedAt: new Date(0).toISOString(),
              profile: {
                userId: target.userId,
                username: target.username ?? `user${target.userId}`,
                url: `https://x.com/${target.username ?? `user${target.userId}`}`,
                profileImageUrl: `https://pbs.twimg.com/profile_images/${target.userId}.jpg`,
                lastUpdated: Date.now(),
              },
            })),
          },
          meta: meta(),
        },
      };
    }
    if (request.method !== "POST" || request.path !== "/api/post") {
      return failure(404, [{ message: "Not Found", code: "NOT_FOUND", recoverable: false }]);
    }
    const signer = authenticate(request);
    if (typeof signer !== "string") return failure(401, [signer]);
    const { targets, content } = request.body ?? {};
    if (!Array.isArray(targets) || !targets.length || !Array.isArray(content) || !content.length) {
      return failure(400, [
        { message: "Invalid request body", code: "VALIDATION_ERROR", recoverable: false },
      ]);
    }
    const text = content.map((part: { text?: string }) => part.text ?? "").join("\n");
    const results: unknown[] = [];
    const errors: ErrorDetail[] = [];
    for (const target of targets as Array<{ platform: string; userId: string }>) {
      const where = { platform: target.platform, userId: target.userId };
      const scripted = targetQueue.shift();
      if (scripted) {
        errors.push({ ...scripted, details: { ...scripted.details, ...where } });
        continue;
      }
      const connected = options.accounts[signer].targets.some(
        (t) => t.platform === target.platform && t.userId === target.userId,
      );
      if (!connected) {
        errors.push({
          message: `No connected ${target.platform} account found for user ID ${target.userId}`,
          code: "UNAUTHORIZED",
          recoverable: true,
          details: where,
        });
        continue;
      }
      if (text.length > 280) {
        errors.push({
          message: "Text is too long",
          code: "VALIDATION_ERROR",
          recoverable: false,
          details: where,
        });
        continue;
      }
      const postId = String(nextPost++);
      posts.push({ signerId: signer, ...where, text, postId });
      results.push({
        ...where,
        status: "success",
        details: {
          postId,
          postUrl: `https://x.com/i/web/status/${postId}`,
          createdAt: new Date().toISOString(),
          threadIds: [postId],
        },
      });
    }
    const status = results.length === 0 ? (STATUS_OF[errors[0].code] ?? 500) : errors.length ? 207 : 200;
    return {
      status,
      body: {
        success: true,
        data: {
          summary: { total: targets.length, succeeded: results.length, failed: errors.length },
          results,
          errors,
        },
        meta: meta(),
      },
    };
  };

  const server = await startFakeServer(handle);
  return {
    url: server.url,
    requests: server.requests,
    posts,
    /** The next target posted to fails with this error (a platform's refusal, a rate limit). */
    failNextTarget(error: ErrorDetail) {
      targetQueue.push(error);
    },
    answerNext(answer: FakeAnswer) {
      queue.push(answer);
    },
    reset() {
      posts.length = 0;
      server.requests.length = 0;
      queue.clear();
      targetQueue.length = 0;
    },
    close: server.close,
  };
}
