import { describe, expect, it } from "vitest";
import { base58Decode, base58Encode, base64Decode, base64Encode } from "./encoding.ts";
import {
  decodeSignedMessageToken,
  encodeSignedMessageToken,
  NEP413_TAG,
  nep413SigningBytes,
} from "./nep413.ts";

/** Little-endian u32 and borsh strings written out by hand, independently of the encoder under test. */
const u32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
const str = (s: string) => {
  const bytes = new TextEncoder().encode(s);
  return [...u32(bytes.length), ...bytes];
};

describe("NEP-413 signing bytes", () => {
  const nonce = Uint8Array.from({ length: 32 }, (_, i) => i);

  it("is the 2^31+413 tag then borsh {message, nonce, recipient, callbackUrl: None}", () => {
    const expected = [...u32(2147484061), ...str("Authorize Curate"), ...nonce, ...str("curate.example"), 0];
    expect(NEP413_TAG).toBe(2147484061);
    expect([
      ...nep413SigningBytes({ message: "Authorize Curate", nonce, recipient: "curate.example" }),
    ]).toEqual(expected);
    expect(expected.slice(0, 4)).toEqual([0x9d, 0x01, 0x00, 0x80]);
  });

  it("writes Some(callbackUrl) and multi-byte characters by byte length", () => {
    const bytes = nep413SigningBytes({
      message: "Authorize ✓",
      nonce,
      recipient: "r",
      callbackUrl: "https://x/cb",
    });
    expect([...bytes]).toEqual([
      ...u32(2147484061),
      ...str("Authorize ✓"),
      ...nonce,
      ...str("r"),
      1,
      ...str("https://x/cb"),
    ]);
  });

  it("refuses a nonce that is not 32 bytes", () => {
    expect(() => nep413SigningBytes({ message: "m", nonce: new Uint8Array(31), recipient: "r" })).toThrow(
      /32 bytes/,
    );
  });
});

describe("signed-message token", () => {
  const token = {
    accountId: "alice.near",
    publicKey: "ed25519:11111111111111111111111111111112",
    signature: base64Encode(new Uint8Array(64).fill(9)),
    message: "Authorize Curate",
    nonce: new Uint8Array(32).fill(3),
    recipient: "curate.example",
    callbackUrl: null,
    state: "s",
  };

  it("round-trips and matches the hand-written layout", () => {
    const encoded = encodeSignedMessageToken(token);
    expect(decodeSignedMessageToken(encoded)).toEqual(token);
    const expected = [
      ...str(token.accountId),
      ...str(token.publicKey),
      ...str(token.signature),
      ...str(token.message),
      ...token.nonce,
      ...str(token.recipient),
      0,
      1,
      ...str("s"),
    ];
    expect([...base64Decode(encoded)]).toEqual(expected);
  });

  it("refuses truncated, padded or garbage tokens", () => {
    const bytes = base64Decode(encodeSignedMessageToken(token));
    expect(() => decodeSignedMessageToken(base64Encode(bytes.subarray(0, bytes.length - 2)))).toThrow();
    expect(() => decodeSignedMessageToken(base64Encode(Uint8Array.from([...bytes, 0])))).toThrow(/trailing/);
    expect(() => decodeSignedMessageToken("!!!")).toThrow();
  });
});

describe("base58", () => {
  it("round-trips, keeps leading zeros and matches known values", () => {
    expect(base58Encode(Uint8Array.from([0, 0, 1]))).toBe("112");
    expect(base58Encode(new TextEncoder().encode("hello world"))).toBe("StV1DL6CwTryKyV");
    expect([...base58Decode("StV1DL6CwTryKyV")]).toEqual([...new TextEncoder().encode("hello world")]);
    const random = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) % 256);
    expect([...base58Decode(base58Encode(random))]).toEqual([...random]);
    expect(() => base58Decode("0OIl")).toThrow(/base58/);
  });
});
