import { createReadStream } from "node:fs";
import {
  LOG_KEYS_PATH,
  type LogSignature,
  logEntrySchema,
  logKeysSchema,
  logSignatureSchema,
} from "@curate/core";
import { configuredFetch } from "../clients/outbound.ts";
import { type ChainReport, ChainVerifier } from "./chain.ts";
import { keyMap } from "./keys.ts";

/** Why a log could not be checked at all (not why it is broken: that is the report's break). */
export class VerifyError extends Error {}

export interface VerifyOutcome {
  feed: string;
  report: ChainReport;
  /** Where the keys came from. */
  keysFrom: string;
}

const isUrl = (source: string) => /^https?:\/\//i.test(source);

/** The download of a feed's log, and the instance's keys, from any address of the log or of the feed's page. */
function logAddresses(source: string) {
  const url = new URL(source);
  const feed =
    /\/api\/feeds\/([^/]+)\/log(\/download)?\/?$/.exec(url.pathname)?.[1] ??
    /^\/feed\/([^/]+)/.exec(url.pathname)?.[1];
  if (!feed) {
    throw new VerifyError(
      `${source} is not a feed's moderation log (…/api/feeds/<feed>/log, …/log/download or …/feed/<feed>).`,
    );
  }
  return {
    download: new URL(`/api/feeds/${feed}/log/download`, url.origin).toString(),
    keys: new URL(LOG_KEYS_PATH, url.origin).toString(),
  };
}

/**
 * The lines of a JSON Lines body, ended by a line feed and nowhere else: JSON lets U+2028 and U+2029 stand unescaped
 * in strings (a moderator's note may hold them), and text line readers such as `node:readline` would end a line there.
 */
async function* jsonLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of chunks) {
    rest += decoder.decode(chunk, { stream: true });
    const lines = rest.split("\n");
    rest = lines.pop() ?? "";
    yield* lines;
  }
  rest += decoder.decode();
  if (rest) yield rest;
}

async function* urlLines(url: string): AsyncGenerator<string> {
  const response = await configuredFetch(url)(url, { headers: { Accept: "application/x-ndjson" } }).catch(
    (error: Error) => {
      throw new VerifyError(`${url} cannot be reached: ${error.message}`);
    },
  );
  if (!response.ok || !response.body) throw new VerifyError(`${url} answered ${response.status}.`);
  yield* jsonLines(response.body as unknown as AsyncIterable<Uint8Array>);
}

async function* fileLines(path: string): AsyncGenerator<string> {
  const stream = createReadStream(path);
  const opened = new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", reject);
  });
  await opened.catch((error: Error) => {
    throw new VerifyError(`${path} cannot be read: ${error.message}`);
  });
  // A copy saved on Windows ends its lines with CR LF; the CR is not part of the entry.
  for await (const line of jsonLines(stream)) yield line.endsWith("\r") ? line.slice(0, -1) : line;
}

async function readKeys(source: string) {
  let text: string;
  if (isUrl(source)) {
    const response = await configuredFetch(source)(source).catch((error: Error) => {
      throw new VerifyError(`${source} cannot be reached: ${error.message}`);
    });
    if (!response.ok) throw new VerifyError(`${source} answered ${response.status}.`);
    text = await response.text();
  } else {
    const lines: string[] = [];
    for await (const line of fileLines(source)) lines.push(line);
    text = lines.join("\n");
  }
  const parsed = logKeysSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new VerifyError(`${source} is not a Curate log key document.`);
  return keyMap(parsed.data.keys);
}

function parseLine(line: string, number: number): Record<string, unknown> {
  try {
    const value = JSON.parse(line);
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch {
    // Reported below, with the line's number.
  }
  throw new VerifyError(`line ${number} of the log is not a JSON object.`);
}

/**
 * Checks a feed's moderation log from its address (the download is fetched, the keys from the instance's
 * /.well-known/curate/log-key.json) or from a downloaded file (the keys it carries, unless `keys` names others):
 * the whole chain is recomputed and every signed head checked against the keys.
 */
export async function verifyLog(source: string, options: { keys?: string } = {}): Promise<VerifyOutcome> {
  const addresses = isUrl(source) ? logAddresses(source) : null;
  const keysSource = options.keys ?? addresses?.keys;
  let keys = keysSource ? await readKeys(keysSource) : null;
  const lines = addresses ? urlLines(addresses.download) : fileLines(source);

  let number = 0;
  let feed: string | null = null;
  const signatures: LogSignature[] = [];
  let verifier: ChainVerifier | null = null;
  let end: { entries?: unknown } | null = null;
  let entries = 0;
  for await (const line of lines) {
    number++;
    if (!line.trim()) continue;
    const value = parseLine(line, number);
    if (number === 1) {
      if (value.format !== "curate-moderation-log" || value.version !== 1 || typeof value.feed !== "string") {
        throw new VerifyError("this is not a Curate moderation log (version 1).");
      }
      feed = value.feed;
      continue;
    }
    if (end) throw new VerifyError(`line ${number} follows the log's end line.`);
    if ("keys" in value) {
      if (!keys) {
        const parsed = logKeysSchema.safeParse(value.keys);
        if (!parsed.success)
          throw new VerifyError(`line ${number}: the keys the log carries are not readable.`);
        keys = keyMap(parsed.data.keys);
      }
    } else if ("signature" in value) {
      const parsed = logSignatureSchema.safeParse(value.signature);
      if (!parsed.success) throw new VerifyError(`line ${number}: a signed head that is not readable.`);
      signatures.push(parsed.data);
    } else if ("entry" in value) {
      const parsed = logEntrySchema.safeParse(value.entry);
      if (!parsed.success) throw new VerifyError(`line ${number}: an entry that is not readable.`);
      verifier ??= new ChainVerifier(feed as string, signatures, keys ?? new Map());
      entries++;
      if (!verifier.add(parsed.data)) break;
    } else if ("end" in value) {
      end = value.end as { entries?: unknown };
    } else {
      throw new VerifyError(`line ${number} is neither keys, a signed head, an entry nor the end.`);
    }
  }
  if (!feed) throw new VerifyError("the log is empty.");
  verifier ??= new ChainVerifier(feed, signatures, keys ?? new Map());
  const report = verifier.finish();
  if (!report.break && (!end || end.entries !== entries)) {
    report.break = {
      seq: report.head ? report.head.seq + 1 : 0,
      problem: "the download ends early: it was cut off after the last entry checked.",
    };
  }
  return {
    feed,
    report,
    keysFrom:
      keysSource ?? "the file itself (pass --keys <address> to check against the instance's published keys)",
  };
}

/** What `verify-log` prints. */
export function describe(outcome: VerifyOutcome): string {
  const { feed, report, keysFrom } = outcome;
  if (report.break) {
    return `✗ The moderation log of "${feed}" breaks at entry ${report.break.seq}: ${report.break.problem}`;
  }
  const head = report.head ? `, head at entry ${report.head.seq} (${report.head.hash.slice(0, 16)}…)` : "";
  return [
    `✓ The moderation log of "${feed}" verifies: ${report.entries} entries${head}.`,
    `  ${report.signatures} signed head(s) checked against the keys of ${keysFrom}.`,
  ].join("\n");
}
