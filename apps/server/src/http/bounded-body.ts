/** A request or an answer: anything with headers and a body stream. */
interface Message {
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
}

/**
 * The body's bytes, or null once it is past `max` bytes, whether announced (Content-Length) or as it arrives; the
 * rest is cancelled, never read. Every body the server reads from a stream it does not control is read through here.
 */
export async function readBodyUpTo(message: Message, max: number): Promise<Buffer | null> {
  const announced = Number(message.headers.get("content-length"));
  if (Number.isFinite(announced) && announced > max) {
    await message.body?.cancel().catch(() => undefined);
    return null;
  }
  const reader = message.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
