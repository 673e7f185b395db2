import { answerQueue, type FakeAnswer, type ReceivedRequest, startFakeServer } from "./server.ts";

/**
 * An external RSS service as the open curate.fun rss-service answers its item API: `POST /api/items` with
 * `Authorization: Bearer <API_SECRET>` and a JSON item (the `feed` package's fields). A missing or wrong secret is a
 * 401 and a missing `content` or `link` a 400, each as `{ error, message }`; an accepted item is a 200
 * `{ message: "Item added successfully", item }`. It keeps every item it accepted, newest first.
 */
export async function startFakeRssService(secret: string) {
  // biome-ignore lint/suspicious/noExplicitAny: items are checked by assertion
  const items: any[] = [];
  const queue = answerQueue();

  const handle = (request: ReceivedRequest): FakeAnswer => {
    const queued = queue.next();
    if (queued) return queued;
    if (request.path !== "/api/items") return { status: 404, body: { error: "Not Found" } };
    if (request.method !== "POST") return { status: 405, body: { error: "Method Not Allowed" } };
    const auth = String(request.headers.authorization ?? "");
    if (!auth) {
      return {
        status: 401,
        body: {
          error: "Unauthorized: Missing Authorization header",
          message:
            "Please provide an API secret in the Authorization header using the format: Bearer <secret>",
        },
      };
    }
    if (!auth.startsWith("Bearer ") || auth.slice(7) !== secret) {
      return {
        status: 401,
        body: { error: "Unauthorized: Invalid API secret", message: "The provided API secret is invalid" },
      };
    }
    const item = request.body;
    if (!item || typeof item !== "object") return { status: 400, body: { error: "Invalid JSON" } };
    for (const field of ["content", "link"]) {
      if (!item[field]) {
        return {
          status: 400,
          body: {
            error: `Missing required field: ${field}`,
            message: `The ${field} field is required for RSS items`,
          },
        };
      }
    }
    items.unshift(item);
    return { status: 200, body: { message: "Item added successfully", item } };
  };

  const server = await startFakeServer(handle);
  return {
    url: server.url,
    requests: server.requests,
    items,
    /** The next request gets this answer instead (a 503, a 429, a redirect, …). */
    answerNext(answer: FakeAnswer) {
      queue.push(answer);
    },
    reset() {
      items.length = 0;
      server.requests.length = 0;
      queue.clear();
    },
    close: server.close,
  };
}
