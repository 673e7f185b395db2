import { base64Decode, base64Encode } from "./encoding.ts";

/** NEP-413 prefix tag: 2^31 + 413, written little-endian before the borsh payload. */
export const NEP413_TAG = 2 ** 31 + 413;
export const NEP413_NONCE_LENGTH = 32;
export const AUTH_MESSAGE = "Authorize Curate";

export interface Nep413Payload {
  message: string;
  nonce: Uint8Array;
  recipient: string;
  callbackUrl?: string | null;
}

/** The fields of a signed-message token (the NEAR ecosystem's `near-sign-verify` format). */
export interface SignedMessageToken extends Nep413Payload {
  accountId: string;
  /** "ed25519:<base58>" */
  publicKey: string;
  /** base64 of the 64-byte ed25519 signature */
  signature: string;
  state?: string | null;
}

class BorshWriter {
  private chunks: number[] = [];
  u8(value: number) {
    this.chunks.push(value & 0xff);
  }
  u32(value: number) {
    for (let i = 0; i < 4; i++) this.chunks.push(Math.floor(value / 2 ** (8 * i)) & 0xff);
  }
  bytes(value: Uint8Array) {
    for (const byte of value) this.chunks.push(byte);
  }
  string(value: string) {
    const encoded = new TextEncoder().encode(value);
    this.u32(encoded.length);
    this.bytes(encoded);
  }
  optionalString(value: string | null | undefined) {
    if (value === null || value === undefined) return this.u8(0);
    this.u8(1);
    this.string(value);
  }
  result() {
    return Uint8Array.from(this.chunks);
  }
}

class BorshReader {
  private readonly data: Uint8Array;
  private offset = 0;
  constructor(data: Uint8Array) {
    this.data = data;
  }
  private take(length: number) {
    if (this.offset + length > this.data.length) throw new Error("Token is truncated");
    const slice = this.data.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }
  u8() {
    return this.take(1)[0];
  }
  u32() {
    const b = this.take(4);
    return (b[0] | (b[1] << 8) | (b[2] << 16)) + b[3] * 2 ** 24;
  }
  fixed(length: number) {
    return Uint8Array.from(this.take(length));
  }
  string() {
    return new TextDecoder("utf-8", { fatal: true }).decode(this.take(this.u32()));
  }
  optionalString() {
    const flag = this.u8();
    if (flag === 0) return null;
    if (flag !== 1) throw new Error("Invalid option flag");
    return this.string();
  }
  end() {
    if (this.offset !== this.data.length) throw new Error("Token has trailing bytes");
  }
}

/** The bytes whose sha256 a NEP-413 signature covers: tag ‖ borsh{message, nonce, recipient, callbackUrl}. */
export function nep413SigningBytes(payload: Nep413Payload): Uint8Array {
  if (payload.nonce.length !== NEP413_NONCE_LENGTH) throw new Error("Nonce must be 32 bytes");
  const writer = new BorshWriter();
  writer.u32(NEP413_TAG);
  writer.string(payload.message);
  writer.bytes(payload.nonce);
  writer.string(payload.recipient);
  writer.optionalString(payload.callbackUrl);
  return writer.result();
}

export function encodeSignedMessageToken(token: SignedMessageToken): string {
  if (token.nonce.length !== NEP413_NONCE_LENGTH) throw new Error("Nonce must be 32 bytes");
  const writer = new BorshWriter();
  writer.string(token.accountId);
  writer.string(token.publicKey);
  writer.string(token.signature);
  writer.string(token.message);
  writer.bytes(token.nonce);
  writer.string(token.recipient);
  writer.optionalString(token.callbackUrl);
  writer.optionalString(token.state);
  return base64Encode(writer.result());
}

/** Parses a token; throws on anything that is not exactly one well-formed token. */
export function decodeSignedMessageToken(token: string): SignedMessageToken {
  const reader = new BorshReader(base64Decode(token));
  const parsed: SignedMessageToken = {
    accountId: reader.string(),
    publicKey: reader.string(),
    signature: reader.string(),
    message: reader.string(),
    nonce: reader.fixed(NEP413_NONCE_LENGTH),
    recipient: reader.string(),
    callbackUrl: reader.optionalString(),
    state: reader.optionalString(),
  };
  reader.end();
  return parsed;
}
