import type { Context as HonoContext, MiddlewareHandler } from "hono";
import type { AppBindings } from "../context.ts";
import { readBodyUpTo } from "../http/bounded-body.ts";
import type { Fediverse } from "./federation.ts";

/** An inbound activity larger than this is refused before it is read: a Follow or Undo is a few kilobytes. */
export const INBOX_BODY_MAX_BYTES = 256 * 1024;

function tooLarge(c: HonoContext<AppBindings>) {
  return c.text("Payload Too Large", 413);
}

/**
 * Hands WebFinger, NodeInfo and the ActivityPub routes (`/ap/…`) to Fedify, which answers in their own formats
 * (JRD, NodeInfo, ActivityStreams), not the API's JSON envelope (decision 0037). A POST's body is bounded before Fedify
 * reads it; without an https PUBLIC_URL (and no development allowance) these routes do not exist.
 */
export function fediverseMiddleware(fediverse: Fediverse): MiddlewareHandler<AppBindings> {
  return async (c) => {
    // Without the fediverse these addresses are nobody's: the app's 404, not the web app's pages.
    if (!fediverse.deps.env.FEDIVERSE.available) return c.notFound();
    let request = c.req.raw;
    if (request.method === "POST") {
      const body = await readBodyUpTo(request, INBOX_BODY_MAX_BYTES);
      if (body === null) return tooLarge(c);
      // A copy of the bytes in an ArrayBuffer of its own: what every runtime takes as a body.
      request = new Request(request.url, {
        method: "POST",
        headers: request.headers,
        body: new Uint8Array(body).buffer,
      });
    }
    return fediverse.federation.fetch(request, {
      contextData: undefined,
      // Nothing here by that name: the app's own 404, never the web app's pages.
      onNotFound: async () => c.notFound(),
      // A person opening the actor's address in a browser is shown the feed's page.
      onNotAcceptable: async () => {
        const actor = /^\/ap\/feeds\/([^/]+)$/.exec(c.req.path);
        if (actor) return c.redirect(`/feed/${actor[1]}`, 302);
        return c.text("Not Acceptable", 406);
      },
    });
  };
}
