import { createHash, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AUTH_MESSAGE, base58Encode, encodeSignedMessageToken, nep413SigningBytes } from "@curate/core";

/** An ed25519 key made and used with node:crypto, independent of the verifier's library. */
export interface TestKey {
  privateKey: KeyObject;
  publicKeyBytes: Uint8Array;
  publicKey: string;
  implicitAccountId: string;
}

export function newKey(): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const der = publicKey.export({ format: "der", type: "spki" });
  const publicKeyBytes = new Uint8Array(der.subarray(der.length - 32));
  return {
    privateKey,
    publicKeyBytes,
    publicKey: `ed25519:${base58Encode(publicKeyBytes)}`,
    implicitAccountId: Buffer.from(publicKeyBytes).toString("hex"),
  };
}

/** The key in NEAR's text form for secret keys: `ed25519:` and base58 of the 32-byte seed and the public key. */
export function nearSecretKey(key: TestKey): string {
  const seed = Buffer.from(key.privateKey.export({ format: "jwk" }).d ?? "", "base64url");
  return `ed25519:${base58Encode(new Uint8Array([...seed, ...key.publicKeyBytes]))}`;
}

export interface SignOptions {
  key: TestKey;
  accountId: string;
  nonce: string;
  recipient: string;
  message?: string;
  callbackUrl?: string | null;
  tamper?: boolean;
}

/** Builds a signed-message token the way a wallet does (NEP-413), signed with node:crypto. */
export function signToken({
  key,
  accountId,
  nonce,
  recipient,
  message = AUTH_MESSAGE,
  callbackUrl,
  tamper,
}: SignOptions) {
  const nonceBytes = new Uint8Array(Buffer.from(nonce, "base64"));
  const digest = createHash("sha256")
    .update(nep413SigningBytes({ message, nonce: nonceBytes, recipient, callbackUrl }))
    .digest();
  const signature = sign(null, digest, key.privateKey);
  if (tamper) signature[0] ^= 0xff;
  return encodeSignedMessageToken({
    accountId,
    publicKey: key.publicKey,
    signature: signature.toString("base64"),
    message,
    nonce: nonceBytes,
    recipient,
    callbackUrl: callbackUrl ?? null,
    state: null,
  });
}

/** A local NEAR JSON-RPC node answering view_access_key from a table of (account, key, permission). */
export async function startFakeNearRpc() {
  const keys = new Map<string, "FullAccess" | { FunctionCall: unknown }>();
  const calls: unknown[] = [];
  let failure: "http-500" | "rpc-internal" | null = null;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const request = JSON.parse(body);
      calls.push(request);
      if (failure === "http-500") {
        res.statusCode = 500;
        res.end("upstream failed");
        return;
      }
      if (failure === "rpc-internal") {
        res.setHeader("Content-Type", "application/json");
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: request.id,
            error: { name: "INTERNAL_ERROR", cause: { name: "INTERNAL_ERROR" }, code: -32000 },
          }),
        );
        return;
      }
      const { account_id, public_key } = request.params ?? {};
      const permission = keys.get(`${account_id}/${public_key}`);
      res.setHeader("Content-Type", "application/json");
      res.end(
        JSON.stringify(
          permission
            ? {
                jsonrpc: "2.0",
                id: request.id,
                result: { nonce: 1, permission, block_height: 1, block_hash: "x" },
              }
            : {
                jsonrpc: "2.0",
                id: request.id,
                error: { name: "HANDLER_ERROR", cause: { name: "UNKNOWN_ACCESS_KEY" }, code: -32000 },
              },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    grant(
      accountId: string,
      key: TestKey,
      permission: "FullAccess" | { FunctionCall: unknown } = "FullAccess",
    ) {
      keys.set(`${accountId}/${key.publicKey}`, permission);
    },
    /** Makes the node fail every call as a broken node would (or answer again with null). */
    fail(mode: typeof failure) {
      failure = mode;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
