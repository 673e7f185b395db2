import { createHash, randomBytes } from "node:crypto";
import { base58Encode } from "@curate/core";
import { generateMnemonic, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { describe, expect, it } from "vitest";
import { nearSecretKey, newKey } from "../../test/near.ts";
import { buildDemoPlan } from "../seed/plan.ts";
import { findRawSecrets, findRawSecretsInPlugin } from "./secrets.ts";

const TELEGRAM_TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw_x";
/** A NEAR secret key as wallets export it without the `ed25519:` prefix: base58 of 64 bytes. */
const unprefixedNearKey = () => nearSecretKey(newKey()).slice("ed25519:".length);
const phraseOf = (words: 12 | 15 | 18 | 21 | 24) => generateMnemonic(wordlist, (words / 3) * 32);
const pathsOf = (value: unknown) => findRawSecrets(value).map((issue) => issue.path);
const messageAt = (value: unknown) => findRawSecrets(value).map((issue) => issue.message)[0];

describe("the secret scan finds the shapes it used to miss", () => {
  it.each([12, 15, 18, 21, 24] as const)("a %i-word BIP-39 seed phrase, alone or inside a text", (words) => {
    const phrase = phraseOf(words);
    expect(phrase.split(" ")).toHaveLength(words);
    expect(messageAt({ seed: phrase })).toBe(
      "This looks like a BIP-39 seed phrase; use a {{PLACEHOLDER}} instead.",
    );
    // Words of the list right before or after the phrase ("wallet" is not one, "seed" and "phrase" are).
    expect(pathsOf({ note: `my seed phrase\n${phrase}  keep it safe` })).toEqual(["note"]);
    expect(pathsOf({ note: `Seed: ${phrase.toUpperCase()}` })).toEqual(["note"]);
  });

  it("an unprefixed NEAR ed25519 secret key (base58 of 64 bytes)", () => {
    for (let i = 0; i < 20; i++) {
      const key = unprefixedNearKey();
      expect(messageAt({ signer: key })).toBe(
        "This looks like a NEAR private key; use a {{PLACEHOLDER}} instead.",
      );
      expect(pathsOf({ note: `key=${key}\n` })).toEqual(["note"]);
    }
  });

  it.each([
    ["the largest 64-byte value", [], 88],
    ["a zero first byte (about one key in 16,000)", [0x00, 0x01], 86],
    ["eight zero bytes", [0, 0, 0, 0, 0, 0, 0, 0, 0x01], 84],
  ])("an unprefixed secret key of %s, and not 63 or 65 bytes alike", (_label, head, length) => {
    const base58Of = (size: number) =>
      base58Encode(new Uint8Array([...head, ...new Uint8Array(size - head.length).fill(0xff)]));
    expect(base58Of(64)).toHaveLength(length);
    expect(pathsOf({ signer: base58Of(64) })).toEqual(["signer"]);
    expect(pathsOf({ signer: base58Of(63), other: base58Of(65) })).toEqual([]);
  });

  it.each([
    ["pwd", { pwd: "hunter2" }, "pwd"],
    ["passwd", { db: { passwd: "hunter2" } }, "db.passwd"],
    ["a cookie header object", { headers: { Cookie: "sid=1" } }, "headers.Cookie"],
    ["a set-cookie header object", { headers: { "set-cookie": ["a=b"] } }, "headers.set-cookie.0"],
    ["x-api-key", { headers: { "x-api-key": "k-123" } }, "headers.x-api-key"],
    ["apikey", { apikey: "k-123" }, "apikey"],
    ["a header list's cookie", { headers: [{ name: "Cookie", value: "a=b" }] }, "headers.0.value"],
    ["a header list's API key", { headers: [{ key: "X-API-Key", value: "k" }] }, "headers.0.value"],
  ])("a value under a credential key: %s", (_label, config, path) => {
    expect(pathsOf(config)).toEqual([path]);
    expect(messageAt(config)).toMatch(/^Use a \{\{PLACEHOLDER\}\} for ".+"; raw secrets are not stored\.$/);
  });

  it.each([
    ["a Cookie: header line", "Cookie: sessionid=0123456789abcdefghij"],
    ["a Set-Cookie: header line", "Set-Cookie: id=a3fWa; Path=/"],
    [
      "cookies as a header sends them",
      "sessionid=8f14e45fceea167a5a36dedd4bea2543; csrftoken=Xy12Ab34Cd56Ef78Gh90",
    ],
    ["one session cookie", "__Secure-next-auth.session-token=eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9abc"],
    ["a cookie with attributes", "remember_token=abc123def456ghi789jkl; Path=/; HttpOnly; Secure"],
  ])("a cookie: %s", (_label, value) => {
    expect(messageAt({ value })).toBe("This looks like a cookie; use a {{PLACEHOLDER}} instead.");
  });

  it.each([
    ["api_key", "https://api.example.com/v1/items?api_key=abc123"],
    ["apikey", "https://api.example.com/v1/items?format=json&apikey=hunter2"],
    ["access_token", "https://graph.example.com/me?access_token=EAAB1234"],
    ["access_token", "https://app.example.com/callback#access_token=ya29.a0AfH6SM&token_type=bearer"],
    ["token", "https://rss.example.com/private/feed.xml?token=4f9a2c7e1b3d5f6a8c0e"],
    ["key", "https://maps.example.com/api/js?key=Zx81hG72kLm93nPq04rS"],
    ["secret", "https://hooks.example.com/in?secret=s3cr3t"],
    ["password", "https://example.com/login?user=amy&password=letmein"],
    [
      "X-Amz-Signature",
      "https://bucket.s3.example.com/a.png?X-Amz-Signature=9f86d081884c7d659a2feaa0c55ad015",
    ],
    ["sig", "https://files.example.net/a.pdf?sv=2022&sig=Ab12Cd34Ef56Gh78Ij90Kl"],
  ])("a URL with a credential in its %s parameter", (name, url) => {
    expect(messageAt({ url })).toBe(
      `This looks like a URL carrying a credential in "${name}"; use a {{PLACEHOLDER}} instead.`,
    );
    expect(pathsOf({ note: `Posts go to ${url} every day` })).toEqual(["note"]);
  });

  it("a Telegram bot token inside a Bot API URL's /bot<token>/ path", () => {
    const url = `https://api.telegram.org/bot${TELEGRAM_TOKEN}/sendMessage?chat_id=@news`;
    expect(messageAt({ endpoint: url })).toBe(
      "This looks like a Telegram bot token; use a {{PLACEHOLDER}} instead.",
    );
  });

  it("this instance's own personal API tokens, alone or inside a text", () => {
    const token = `curate_pat_${randomBytes(32).toString("base64url")}`;
    expect(messageAt({ note: token })).toBe(
      "This looks like a Curate API token; use a {{PLACEHOLDER}} instead.",
    );
    expect(pathsOf({ script: `CURATE_TOKEN=${token} node bot.js` })).toEqual(["script"]);
    // The prefix alone, as docs name it, is no token.
    expect(pathsOf({ note: "tokens start with curate_pat_" })).toEqual([]);
  });

  it("credential header lines", () => {
    expect(pathsOf({ headers: ["Accept: text/html", "Authorization: Bearer abcdef123456"] })).toEqual([
      "headers.1",
    ]);
    expect(pathsOf({ headers: ["X-Api-Key: 0123456789"] })).toEqual(["headers.0"]);
  });

  it("a default or example under a credential-like property of a JSON Schema, not its description", () => {
    const schema = {
      type: "object",
      properties: {
        apiKey: { type: "string", description: "Your API key", default: "k-8f14e45fceea" },
        auth: { type: "object", properties: { password: { type: "string", examples: ["letmein"] } } },
        channel: { type: "string", default: phraseOf(12) },
      },
      required: ["apiKey"],
    };
    expect(findRawSecretsInPlugin({ schemaDefinition: schema }).map((issue) => issue.path)).toEqual([
      "schemaDefinition.properties.apiKey.default",
      "schemaDefinition.properties.auth.properties.password.examples.0",
      "schemaDefinition.properties.channel.default",
    ]);
  });
});

describe("the secret scan leaves ordinary values alone", () => {
  it("ordinary English sentences of twelve or more words", () => {
    // Ordinary prose can be made of list words only; its windows' checksums do not hold.
    const ALL_LISTED = "only true art will change mind about what music can become soon today";
    expect(ALL_LISTED.split(" ").every((word) => wordlist.includes(word))).toBe(true);
    for (const sentence of [
      "The quick brown fox jumps over the lazy dog and then runs far away",
      "Daily news about art music and culture from around the world every single morning",
      "Please approve the best posts about solar energy and climate policy in this feed",
      ALL_LISTED,
    ]) {
      expect(pathsOf({ description: sentence })).toEqual([]);
    }
  });

  it("twelve BIP-39 words whose checksum does not hold", () => {
    const badChecksums = [
      "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon",
      "legal winner thank year wave sausage worth useful legal winner thank year",
    ];
    for (const words of badChecksums) {
      expect(validateMnemonic(words, wordlist)).toBe(false);
      expect(pathsOf({ note: words })).toEqual([]);
    }
  });

  it("CIDs, hashes, transaction hashes and public keys", () => {
    const values = [
      "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG",
      "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
      "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/image.png",
      "https://ipfs.io/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG",
      createHash("sha256").update("x").digest("hex"),
      createHash("sha512").update("x").digest("hex"),
      createHash("sha512").update("x").digest("base64"),
      newKey().publicKey,
      newKey().publicKey.slice("ed25519:".length),
      "0x5c9f3a1b2e4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a3c5e7b9d1f3a5c7e9b1d3f5a",
    ];
    for (let i = 0; i < 20; i++) values.push(base58Encode(randomBytes(32)));
    for (const value of values) expect(pathsOf({ value }), value).toEqual([]);
  });

  it("URLs with ordinary query parameters, and placeholders or stand-ins where credentials go", () => {
    for (const url of [
      "https://example.com/feed?page=2&sort=new",
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
      "https://x.com/search?q=%23near&src=typed_query&f=live",
      "https://example.com/list?key=date&order=desc",
      "https://api.example.com/search?next_token=b26v89c19zqg8o3fpzbkk2&max_results=100",
      "https://example.com/?utm_source=newsletter&utm_campaign=2024-spring",
      "https://api.example.com/items?token={{API_TOKEN}}",
      "https://api.example.com/items?api_key=%7B%7BAPI_KEY%7D%7D",
      "https://api.example.com/items?api_key=YOUR_API_KEY",
      "https://api.example.com/items?token=abc",
      "https://t.me/curatedotfun",
      "https://api.telegram.org/bot{{TELEGRAM_BOT_TOKEN}}/sendMessage",
    ]) {
      expect(pathsOf({ url }), url).toEqual([]);
    }
  });

  it("texts that look a little like cookies", () => {
    for (const value of [
      "sort=desc",
      "lang=en; theme=dark",
      "hash=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "a=1&b=2",
    ]) {
      expect(pathsOf({ value }), value).toEqual([]);
    }
  });

  it("keys about credentials that hold none: limits, counts, types and names", () => {
    expect(
      pathsOf({
        maxTokens: 500,
        max_tokens: 500,
        tokenLimit: 1000,
        tokenizer: "cl100k",
        tokenType: "bearer",
        secretName: "API_KEY",
        cookieMaxAge: 3600,
      }),
    ).toEqual([]);
  });

  it("a JSON Schema describing credential fields without values", () => {
    const schema = {
      type: "object",
      properties: {
        apiKey: { type: "string", description: "Your API key", format: "password", minLength: 20 },
        botToken: { type: "string", title: "Bot token", pattern: "^\\{\\{[A-Z_]+\\}\\}$" },
      },
      required: ["apiKey", "botToken"],
    };
    expect(findRawSecretsInPlugin({ schemaDefinition: schema })).toEqual([]);
    expect(pathsOf({ outputs: { schema } })).toEqual([]);
  });

  it("the demo feeds' configs", () => {
    const plan = buildDemoPlan({ now: new Date(), publicUrl: "http://localhost:3000", botHandle: "curate" });
    expect(plan.feeds.length).toBeGreaterThan(0);
    for (const feed of plan.feeds) expect(findRawSecrets(feed.config), feed.id).toEqual([]);
  });
});
