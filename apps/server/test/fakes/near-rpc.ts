import { createHash, randomBytes } from "node:crypto";
import { base58Decode, base58Encode } from "@curate/core";
import { decodeSignedTransaction, encodeTransaction } from "@near-js/transactions";
import { ed25519 } from "@noble/curves/ed25519.js";
import { answerQueue, type FakeAnswer, type ReceivedRequest, startFakeServer } from "./server.ts";

/**
 * A local NEAR JSON-RPC node: `query` (`view_access_key`: nonce, permission, a recent block hash), `send_tx` and
 * `broadcast_tx_commit` (a signed transaction in base64), and `tx` (a transaction by hash). It decodes each
 * transaction with @near-js/transactions, checks its ed25519 signature over sha256 of the encoded transaction
 * (with @noble/curves, not the signer's library), the nonce, the block hash and the key's permission, then runs
 * SocialDB's `set` as the contract would judge it: data only under the signer's own account, storage needed.
 * Errors come in nearcore's shapes (`HANDLER_ERROR` with a cause, `TxExecutionError` data, contract panics in the
 * outcome's `Failure`).
 */

type Permission =
  | "FullAccess"
  | { FunctionCall: { allowance: string | null; receiver_id: string; method_names: string[] } };

interface FakeKey {
  publicKey: string;
  nonce: bigint;
  permission: Permission;
}

export interface FakeAccount {
  id: string;
  keys: Array<{ publicKey: string; nonce?: number; permission?: Permission }>;
  /** No storage balance on social.near: `set` panics. */
  noStorage?: boolean;
}

export interface ReceivedTransaction {
  hash: string;
  signerId: string;
  publicKey: string;
  nonce: bigint;
  receiverId: string;
  methodName: string;
  // biome-ignore lint/suspicious/noExplicitAny: the call's JSON arguments, checked by assertion
  args: any;
  gas: bigint;
  deposit: bigint;
  signatureValid: boolean;
}

const rpcError = (id: unknown, cause: string, data: unknown, info: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  error: { name: "HANDLER_ERROR", cause: { name: cause, info }, code: -32000, message: "Server error", data },
});

const invalidTx = (id: unknown, error: Record<string, unknown>) =>
  rpcError(id, "INVALID_TRANSACTION", { TxExecutionError: { InvalidTxError: error } });

export async function startFakeNearRpc(options: { accounts: FakeAccount[]; socialContract?: string }) {
  const contract = options.socialContract ?? "social.near";
  const keys = new Map<string, Map<string, FakeKey>>();
  for (const account of options.accounts) {
    keys.set(
      account.id,
      new Map(
        account.keys.map((key) => [
          key.publicKey,
          {
            publicKey: key.publicKey,
            nonce: BigInt(key.nonce ?? 7),
            permission: key.permission ?? "FullAccess",
          },
        ]),
      ),
    );
  }
  const blockHash = base58Encode(randomBytes(32));
  const received: ReceivedTransaction[] = [];
  const outcomes = new Map<string, unknown>();
  const queue = answerQueue();
  let answersToLose = 0;

  function execute(id: unknown, base64: string): unknown {
    const bytes = new Uint8Array(Buffer.from(base64, "base64"));
    const signed = decodeSignedTransaction(bytes);
    const tx = signed.transaction;
    const digest = createHash("sha256").update(encodeTransaction(tx)).digest();
    const hash = base58Encode(digest);
    if (outcomes.has(hash)) return { jsonrpc: "2.0", id, result: outcomes.get(hash) };
    const publicKey = `ed25519:${base58Encode(new Uint8Array(tx.publicKey.ed25519Key?.data ?? []))}`;
    const signature = new Uint8Array(signed.signature.ed25519Signature?.data ?? []);
    const signatureValid = ed25519.verify(signature, digest, base58Decode(publicKey.slice(8)));
    const key = keys.get(tx.signerId)?.get(publicKey);
    if (!keys.has(tx.signerId)) return invalidTx(id, { InvalidSignerId: { signer_id: tx.signerId } });
    if (!key)
      return invalidTx(id, {
        InvalidAccessKeyError: { AccessKeyNotFound: { account_id: tx.signerId, public_key: publicKey } },
      });
    if (!signatureValid) return invalidTx(id, { InvalidSignature: null });
    if (tx.nonce <= key.nonce)
      return invalidTx(id, { InvalidNonce: { tx_nonce: Number(tx.nonce), ak_nonce: Number(key.nonce) } });
    if (base58Encode(new Uint8Array(tx.blockHash)) !== blockHash) return invalidTx(id, { Expired: null });
    const [action] = tx.actions;
    const call = action?.functionCall;
    if (!call || tx.actions.length !== 1)
      return invalidTx(id, { ActionsValidation: { TotalNumberOfActionsExceeded: {} } });
    if (key.permission !== "FullAccess") {
      const { receiver_id, method_names } = key.permission.FunctionCall;
      if (receiver_id !== tx.receiverId) {
        return invalidTx(id, {
          InvalidAccessKeyError: {
            ReceiverMismatch: { tx_receiver: tx.receiverId, ak_receiver: receiver_id },
          },
        });
      }
      if (method_names.length && !method_names.includes(call.methodName)) {
        return invalidTx(id, {
          InvalidAccessKeyError: { MethodNameMismatch: { method_name: call.methodName } },
        });
      }
    }
    key.nonce = tx.nonce;
    const args = JSON.parse(Buffer.from(call.args).toString("utf8"));
    received.push({
      hash,
      signerId: tx.signerId,
      publicKey,
      nonce: tx.nonce,
      receiverId: tx.receiverId,
      methodName: call.methodName,
      args,
      gas: BigInt(call.gas),
      deposit: BigInt(call.deposit),
      signatureValid,
    });
    let panic: string | null = null;
    if (tx.receiverId === contract && call.methodName === "set") {
      const owners = Object.keys(args?.data ?? {});
      if (owners.some((owner) => owner !== tx.signerId)) panic = "Smart contract panicked: Permission denied";
      else if (options.accounts.find((a) => a.id === tx.signerId)?.noStorage) {
        panic = "Smart contract panicked: Not enough storage balance";
      }
    }
    const receiptId = base58Encode(randomBytes(32));
    const status = panic
      ? { Failure: { ActionError: { index: 0, kind: { FunctionCallError: { ExecutionError: panic } } } } }
      : { SuccessValue: "" };
    const outcome = {
      final_execution_status: "EXECUTED_OPTIMISTIC",
      status,
      transaction: {
        signer_id: tx.signerId,
        public_key: publicKey,
        nonce: Number(tx.nonce),
        receiver_id: tx.receiverId,
        actions: [
          {
            FunctionCall: {
              method_name: call.methodName,
              args: Buffer.from(call.args).toString("base64"),
              gas: Number(call.gas),
              deposit: call.deposit.toString(),
            },
          },
        ],
        signature: `ed25519:${base58Encode(signature)}`,
        hash,
        priority_fee: 0,
      },
      transaction_outcome: {
        id: hash,
        block_hash: blockHash,
        proof: [],
        outcome: {
          logs: [],
          receipt_ids: [receiptId],
          gas_burnt: 2_428_000_000_000,
          tokens_burnt: "242800000000000000000",
          executor_id: tx.signerId,
          status: { SuccessReceiptId: receiptId },
          metadata: { version: 1, gas_profile: null },
        },
      },
      receipts_outcome: [
        {
          id: receiptId,
          block_hash: blockHash,
          proof: [],
          outcome: {
            logs: [],
            receipt_ids: [],
            gas_burnt: 5_000_000_000_000,
            tokens_burnt: "500000000000000000000",
            executor_id: tx.receiverId,
            status,
            metadata: { version: 3, gas_profile: [] },
          },
        },
      ],
    };
    outcomes.set(hash, outcome);
    return { jsonrpc: "2.0", id, result: outcome };
  }

  const handle = (request: ReceivedRequest): FakeAnswer => {
    const { id, method, params } = request.body ?? {};
    const queued = queue.next();
    if (queued) return queued;
    if (method === "query" && params?.request_type === "view_access_key") {
      const account = keys.get(params.account_id);
      if (!account) {
        return {
          status: 200,
          body: rpcError(id, "UNKNOWN_ACCOUNT", `account ${params.account_id} does not exist while viewing`),
        };
      }
      const key = account.get(params.public_key);
      if (!key) {
        return {
          status: 200,
          body: rpcError(
            id,
            "UNKNOWN_ACCESS_KEY",
            `access key ${params.public_key} does not exist while viewing`,
          ),
        };
      }
      return {
        status: 200,
        body: {
          jsonrpc: "2.0",
          id,
          result: {
            nonce: Number(key.nonce),
            permission: key.permission,
            block_height: 140_000_000,
            block_hash: blockHash,
          },
        },
      };
    }
    if (method === "send_tx" || method === "broadcast_tx_commit") {
      const base64 = method === "send_tx" ? params?.signed_tx_base64 : params?.[0];
      const answer = execute(id, base64);
      if (answersToLose > 0) {
        answersToLose--;
        return { status: 408, body: rpcError(id, "TIMEOUT_ERROR", "Timeout") };
      }
      return { status: 200, body: answer };
    }
    if (method === "tx") {
      const outcome = outcomes.get(params?.tx_hash);
      return outcome
        ? { status: 200, body: { jsonrpc: "2.0", id, result: outcome } }
        : {
            status: 200,
            body: rpcError(id, "UNKNOWN_TRANSACTION", `Transaction ${params?.tx_hash} doesn't exist`),
          };
    }
    return {
      status: 200,
      body: {
        jsonrpc: "2.0",
        id,
        error: {
          name: "REQUEST_VALIDATION_ERROR",
          cause: { name: "METHOD_NOT_FOUND" },
          code: -32601,
          message: "Method not found",
        },
      },
    };
  };

  const server = await startFakeServer(handle);
  return {
    url: server.url,
    requests: server.requests,
    received,
    blockHash,
    nonceOf: (accountId: string, publicKey: string) => keys.get(accountId)?.get(publicKey)?.nonce,
    /** The next `count` sends are applied but answered with a timeout, as when a node's answers are lost. */
    loseAnswers(count: number) {
      answersToLose = count;
    },
    answerNext(answer: FakeAnswer) {
      queue.push(answer);
    },
    reset() {
      received.length = 0;
      server.requests.length = 0;
      queue.clear();
      answersToLose = 0;
    },
    close: server.close,
  };
}
