import { once } from "node:events";
import { createReadStream } from "node:fs";
import { createGunzip } from "node:zlib";

/**
 * An archive is JSON lines, and a line ends at the byte 0x0A and nowhere else. JSON lets U+2028 and U+2029 stand
 * unescaped inside strings, and PostgreSQL's `row_to_json` leaves them so, but line readers built for text
 * (`node:readline`) end lines there too: the writer escapes them, and the reader never splits on them, so archives
 * written before the writer escaped them still read.
 */
export function writeLine(stream: NodeJS.WritableStream, json: string): Promise<void> | undefined {
  const line = json.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  if (stream.write(`${line}\n`)) return undefined;
  return once(stream, "drain").then(() => undefined);
}

/** The gunzipped lines of `file`, each decoded as strict UTF-8 (a damaged byte stops the read, never a "?"). */
export async function* readLines(file: string): AsyncGenerator<string> {
  const gunzip = createGunzip();
  const source = createReadStream(file);
  source.on("error", (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let pending: Buffer[] = [];
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      let start = 0;
      for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
        pending.push(chunk.subarray(start, end));
        yield decoder.decode(Buffer.concat(pending));
        pending = [];
        start = end + 1;
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
    }
    if (pending.length > 0) yield decoder.decode(Buffer.concat(pending));
  } finally {
    source.destroy();
    gunzip.destroy();
  }
}
