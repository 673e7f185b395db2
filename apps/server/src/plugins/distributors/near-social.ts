import {
  base58Decode,
  base58Encode,
  type NearSocialDistributorConfig,
  nearSocialDistributorConfigSchema,
} from "@curate/core";
import { KeyPair, type KeyPairString } from "@near-js/crypto";
import { JsonRpcProvider } from "@near-js/providers";
import { KeyPairSigner } from "@near-js/signers";
import { actionCreators, createTransaction } from "@near-js/transactions";
import type { AccessKeyView, FinalExecutionOutcome } from "@near-js/types";
import { abortable, isRetryableStatus } from "../../clients/http.ts";
import { BlockedUrlError, checkOutboundUrl } from "../../clients/outbound.ts";
import {
  CREDENTIALS_REJECTED,
  type DistributionReceipt,
  type DistributorPlugin,
  PluginError,
  type RetractionOutcome,
} from "../types.ts";
import { cutText, type Post, postFrom } from "./content.ts";

export interface NearSocialSettings {
  /** NEAR RPC nodes by network (`NEAR_RPC_URL`, `NEAR_TESTNET_RPC_URL`). */
  rpcUrls: { mainnet: string; testnet: string };
  /**
   * Hosts a feed's own `rpcUrl` may name on a private address (PRIVATE_HOSTS_ALLOWED); any other node it names must
   * be public, as every address a feed chooses.
   */
  privateHostsAllowed?: readonly string[];
}

/** The node a send goes to: the feed's own choice, once the outbound guard lets it, else the server's. */
async function rpcNode(settings: NearSocialSettings, config: NearSocialDistributorConfig): Promise<string> {
  const network = config.networkId ?? "mainnet";
  if (!config.rpcUrl) return settings.rpcUrls[network];
  try {
    return (await checkOutboundUrl(config.rpcUrl, settings.privateHostsAllowed ?? [])).href;
  } catch (error) {
    if (!(error instanceof BlockedUrlError)) throw error;
    throw new PluginError(
      `The NEAR RPC node ${new URL(config.rpcUrl).host} is not on a public address: name a public node in rpcUrl, or leave it out to use this server's.`,
      { code: "NEAR_RPC_REFUSED" },
    );
  }
}

/** The SocialDB contract near.social reads, by network. */
export const SOCIAL_CONTRACTS = { mainnet: "social.near", testnet: "v1.social08.testnet" } as const;
const EXPLORERS = {
  mainnet: "https://nearblocks.io/txns",
  testnet: "https://testnet.nearblocks.io/txns",
} as const;

/** Ample for `set` with a post (it uses a few Tgas); a function-call key's allowance must cover it. */
export const SET_GAS = 100_000_000_000_000n;
/** The longest post text: SocialDB charges storage per byte from the account's storage balance. */
export const NEAR_SOCIAL_TEXT_LIMIT = 5000;
const MAX_HASHTAGS = 10;
const RPC_RETRIES = { retries: 2, wait: 250, backoff: 2 };

/** The function call this distributor signs (bigints as text, so it can be stored and shown). */
export interface NearSocialCall {
  signerId: string;
  receiverId: string;
  methodName: "set";
  args: { data: Record<string, { post: { main: string }; index: Record<string, string> }> };
  gas: string;
  deposit: string;
}

/** Markdown near.social would otherwise render, escaped so a post shows as written. */
const MARKDOWN = /[\\`*_{}[\]()#+\-.!|<>~]/g;
const escapedLength = (grapheme: string) => grapheme.length + (grapheme.match(MARKDOWN)?.length ?? 0);
/** `text` escaped and cut so that the escaped form fits `max`. */
const fitted = (text: string, max: number) => cutText(text, max, escapedLength).replace(MARKDOWN, "\\$&");

/**
 * The post's markdown: the feed's own text, else the title (bold), body and link, a blank line apart; at most
 * NEAR_SOCIAL_TEXT_LIMIT characters, the body giving way. The link is an autolink (`<…>`), which markdown leaves
 * whole whatever characters the URL has.
 */
function markdownOf(post: Post): string | null {
  if (post.text) return fitted(post.text, NEAR_SOCIAL_TEXT_LIMIT);
  const title = post.title ? `**${fitted(post.title, 300)}**` : "";
  const link = post.link ? `<${post.link}>` : "";
  const room =
    NEAR_SOCIAL_TEXT_LIMIT - [title, link].reduce((sum, part) => sum + (part ? part.length + 2 : 0), 0);
  const body = post.body && room > 0 ? fitted(post.body, room) : "";
  return [title, body, link].filter(Boolean).join("\n\n") || null;
}

/** near.social's hashtags: lower-case letters, digits and underscores. */
function hashtagsOf(tags: string[]): string[] {
  const clean = tags.map((tag) => tag.toLowerCase().replace(/[^\p{L}\p{N}_]/gu, "")).filter(Boolean);
  return [...new Set(clean)].slice(0, MAX_HASHTAGS);
}

/** What near.social's composer writes for a post: `post/main`, and the indexes its feeds read. */
function socialCall(input: unknown, config: NearSocialDistributorConfig): NearSocialCall {
  const post = postFrom(input);
  const text = markdownOf(post);
  if (!text) {
    throw new PluginError("There is nothing to post: give the item a title, content or link, or a text.", {
      code: "NEAR_SOCIAL_EMPTY_POST",
    });
  }
  const account = config.accountId;
  const main = JSON.stringify({ type: "md", text, ...(post.image ? { image: { url: post.image } } : {}) });
  const hashtags = hashtagsOf(post.tags);
  const index: Record<string, string> = { post: JSON.stringify({ key: "main", value: { type: "md" } }) };
  if (hashtags.length) {
    index.hashtag = JSON.stringify(
      hashtags.map((tag) => ({ key: tag, value: { type: "social", path: `${account}/post/main` } })),
    );
  }
  return {
    signerId: account,
    receiverId: SOCIAL_CONTRACTS[config.networkId ?? "mainnet"],
    methodName: "set",
    args: { data: { [account]: { post: { main }, index } } },
    gas: SET_GAS.toString(),
    deposit: "0",
  };
}

/** The key's right to call `set` on the contract: full access, or a function-call key for it. */
function keyMayCall(permission: AccessKeyView["permission"], call: NearSocialCall): boolean {
  if (permission === "FullAccess") return true;
  const { receiver_id, method_names } = permission.FunctionCall;
  return (
    receiver_id === call.receiverId && (method_names.length === 0 || method_names.includes(call.methodName))
  );
}

/** The contract's own words from a failed outcome (`Smart contract panicked: …`), or the failure as JSON. */
function failureText(failure: unknown): string {
  const find = (value: unknown): string | null => {
    if (!value || typeof value !== "object") return null;
    for (const [key, inner] of Object.entries(value)) {
      if (key === "ExecutionError" && typeof inner === "string") return inner;
      const found = find(inner);
      if (found) return found;
    }
    return null;
  };
  return find(failure) ?? JSON.stringify(failure);
}

const errorType = (error: unknown) => (error as { type?: unknown })?.type;

/** The HTTP status the RPC client failed on (its ProviderError keeps it as `cause`), if that is what happened. */
function httpStatusOf(error: unknown): number | null {
  const cause = (error as { cause?: unknown })?.cause;
  return typeof cause === "number" ? cause : null;
}

/**
 * Whether a failed send leaves the transaction's fate unknown — no answer, a timeout, a failing node — rather than
 * the node having refused it.
 */
function outcomeUnknown(error: unknown): boolean {
  const type = errorType(error);
  return !type || type === "TimeoutError" || type === "RetriesExceeded";
}

/** What the RPC node and the chain said, as step errors that say what to fix. */
function stepError(error: unknown, call: NearSocialCall, publicKey: string): PluginError {
  if (error instanceof PluginError) return error;
  const type = errorType(error);
  const message = error instanceof Error ? error.message : String(error);
  switch (type) {
    case "AccessKeyDoesNotExist":
      return new PluginError(
        `${publicKey} is not a key of ${call.signerId}: add it to the account (full access, or a function-call key for ${call.receiverId}), or put the account's key in privateKey's variable.`,
        { code: CREDENTIALS_REJECTED, cause: error },
      );
    case "AccountDoesNotExist":
      return new PluginError(
        `There is no account ${call.signerId} on this network: check accountId and networkId.`,
        {
          code: "NEAR_ACCOUNT_NOT_FOUND",
          cause: error,
        },
      );
    case "MethodNameMismatch":
    case "ReceiverMismatch":
    case "RequiresFullAccess":
      return new PluginError(
        `The key may not call ${call.methodName} on ${call.receiverId} (${message}): use a function-call key for ${call.receiverId} or a full-access key.`,
        { code: CREDENTIALS_REJECTED, cause: error },
      );
    case "NotEnoughAllowance":
      return new PluginError(
        `The key's allowance is spent (${message}): add a new function-call key, or more allowance.`,
        {
          code: CREDENTIALS_REJECTED,
          cause: error,
        },
      );
    case "NotEnoughBalance":
    case "LackBalanceForState":
      return new PluginError(
        `${call.signerId} cannot pay for the transaction (${message}): add NEAR to the account.`,
        {
          code: "NEAR_BALANCE_TOO_LOW",
          cause: error,
        },
      );
    case "InvalidNonce":
    case "Expired":
    case "TimeoutError":
    case "RetriesExceeded":
      return new PluginError(`The NEAR network did not take the transaction this time (${message}).`, {
        code: "NEAR_RPC_UNAVAILABLE",
        retryable: true,
        cause: error,
      });
  }
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return new PluginError("The NEAR RPC node did not answer in time.", {
      code: "NEAR_RPC_UNAVAILABLE",
      retryable: true,
      cause: error,
    });
  }
  const status = httpStatusOf(error);
  if (status !== null && !isRetryableStatus(status)) {
    return new PluginError(`The NEAR RPC node refused the request (${status}: ${message}).`, {
      code: "NEAR_REJECTED",
      cause: error,
    });
  }
  if (status !== null || !type) {
    return new PluginError(`The NEAR RPC node could not be reached or failed (${message}).`, {
      code: "NEAR_RPC_UNAVAILABLE",
      retryable: true,
      cause: error,
    });
  }
  return new PluginError(`The NEAR network refused the transaction (${message}).`, {
    code: "NEAR_REJECTED",
    cause: error,
  });
}

/**
 * A post on NEAR Social: a `set` call on the SocialDB contract (`social.near`), signed with the account's key
 * (@near-js: the access key's nonce and a recent block hash from the node, then `send_tx`), in the format
 * near.social's composer writes. A transaction cannot be deduplicated by the chain across publications, but one
 * that timed out is looked up by its hash before the step gives up, so a post that landed is not posted again.
 */
export function createNearSocialDistributor(
  settings: NearSocialSettings,
): DistributorPlugin<NearSocialDistributorConfig> {
  return {
    type: "distributor",
    name: "near-social",
    configSchema: nearSocialDistributorConfigSchema,
    // One transaction at a time per signer: each takes the key's next nonce.
    throttle: (config) => [
      { key: `signer:${config.networkId ?? "mainnet"}:${config.accountId}`, intervalMs: 1000 },
    ],
    async render(input, config) {
      return { action: "functionCall", request: socialCall(input, config) };
    },
    async send(rendered, config, context) {
      const call = rendered.request as NearSocialCall;
      const network = config.networkId ?? "mainnet";
      let keyPair: KeyPair;
      try {
        keyPair = KeyPair.fromString(config.privateKey as KeyPairString);
      } catch {
        throw new PluginError("privateKey's variable does not hold a NEAR key (ed25519:<base58>).", {
          code: "NEAR_KEY_INVALID",
        });
      }
      const publicKey = keyPair.getPublicKey();
      const provider = new JsonRpcProvider({ url: await rpcNode(settings, config) }, RPC_RETRIES);
      let hash = "";
      try {
        const accessKey = await abortable(
          provider.viewAccessKey(call.signerId, publicKey, { finality: "final" }),
          context.signal,
        );
        if (!keyMayCall(accessKey.permission, call)) {
          throw new PluginError(
            `The key ${publicKey} may not call ${call.methodName} on ${call.receiverId}: use a function-call key for ${call.receiverId} or a full-access key.`,
            { code: CREDENTIALS_REJECTED },
          );
        }
        const transaction = createTransaction(
          call.signerId,
          publicKey,
          call.receiverId,
          accessKey.nonce + 1n,
          [actionCreators.functionCall(call.methodName, call.args, BigInt(call.gas), BigInt(call.deposit))],
          base58Decode(accessKey.block_hash),
        );
        const [digest, signed] = await new KeyPairSigner(keyPair).signTransaction(transaction);
        hash = base58Encode(digest);
        let outcome: FinalExecutionOutcome;
        try {
          outcome = await abortable(
            provider.sendTransactionUntil(signed, "EXECUTED_OPTIMISTIC"),
            context.signal,
          );
        } catch (error) {
          if (context.signal.aborted || !outcomeUnknown(error)) throw error;
          // The node may have taken the transaction before the answer was lost: if it is there, it is the post.
          outcome = await abortable(
            provider.txStatus(hash, call.signerId, "EXECUTED_OPTIMISTIC"),
            context.signal,
          ).catch(() => {
            throw error;
          });
        }
        const failure =
          "Failure" in (outcome.status as object) ? (outcome.status as { Failure: unknown }).Failure : null;
        if (failure) {
          const said = failureText(failure);
          throw new PluginError(
            /storage/i.test(said)
              ? `${call.receiverId} refused the post for want of storage (${said}): give ${call.signerId} storage there (post once from near.social, or call storage_deposit).`
              : `${call.receiverId} refused the post (${said}).`,
            { code: "NEAR_SOCIAL_REFUSED" },
          );
        }
      } catch (error) {
        throw stepError(error, call, publicKey.toString());
      }
      return {
        transactionHash: hash,
        reference: { kind: "near-transaction", id: hash, url: `${EXPLORERS[network]}/${hash}` },
      };
    },
    retract: async (receipt) => nearSocialCannotRetract(receipt),
  };
}

/**
 * Retraction: a NEAR Social post is written on chain (a transaction on the social contract), and the chain keeps
 * every transaction: it cannot be deleted, only superseded, so it is recorded as "cannot retract" with the reason.
 */
export function nearSocialCannotRetract(receipt: DistributionReceipt): RetractionOutcome {
  const hash = receipt.reference?.id;
  return {
    retracted: false,
    reason: `A NEAR Social post is stored on chain${hash ? ` (transaction ${hash})` : ""} and cannot be deleted; it stays readable there.`,
  };
}
