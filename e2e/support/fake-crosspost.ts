import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeSignedMessageToken } from "@curate/core";

/** The X account the fake's login page connects, whoever asks. */
export const FAKE_X_ACCOUNT = { userId: "4242", username: "SolarAlice" };

/**
 * A local Open Crosspost service for the browser and the server alike: `POST /api/auth/authorize/near` and
 * `POST /api/auth/{platform}/login` (Bearer: a NEP-413 token signed for crosspost.near), `GET /api/auth/accounts`
 * (X-Near-Account), and the platform's login page, which connects the account and reports to its opener the way
 * the service's callback page does (`AUTH_CALLBACK`, status code AUTH_SUCCESS). Closing the window instead says
 * nothing. Browsers call it across origins, so it answers CORS.
 */
export async function startFakeCrosspost() {
  const authorized = new Set<string>();
  const connected = new Map<string, Array<{ platform: string; userId: string; username: string }>>();
  const cors = {
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "authorization, content-type, x-near-account",
    "access-control-allow-methods": "GET, POST, OPTIONS",
  };
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { ...cors, "content-type": "application/json" }).end(JSON.stringify(body));
  const meta = () => ({ requestId: "fake", timestamp: new Date().toISOString() });
  const refuse = (res: ServerResponse, message: string) =>
    json(res, 401, {
      success: false,
      errors: [{ message, code: "UNAUTHORIZED", recoverable: false }],
      meta: meta(),
    });
  const signer = (req: IncomingMessage): string | null => {
    const header = String(req.headers.authorization ?? "");
    if (!header.startsWith("Bearer ")) return null;
    try {
      const token = decodeSignedMessageToken(header.slice(7));
      // The service verifies the signature too; this fake checks what the app controls: message and recipient.
      if (token.recipient !== "crosspost.near") return null;
      if (token.message !== `Authenticating request for NEAR account: ${token.accountId}`) return null;
      return token.accountId;
    } catch {
      return null;
    }
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    req.resume();
    if (req.method === "OPTIONS") return void res.writeHead(204, cors).end();
    if (req.method === "POST" && url.pathname === "/api/auth/authorize/near") {
      const account = signer(req);
      if (!account) return refuse(res, "NEAR authentication failed");
      authorized.add(account);
      return json(res, 200, {
        success: true,
        data: { nearAccount: account, authorized: true },
        meta: meta(),
      });
    }
    const login = url.pathname.match(/^\/api\/auth\/([a-z]+)\/login$/);
    if (req.method === "POST" && login) {
      const account = signer(req);
      if (!account || !authorized.has(account)) return refuse(res, "NEAR account not authorized");
      const page = new URL(`/oauth/${login[1]}`, `http://${req.headers.host}`);
      page.searchParams.set("account", account);
      return json(res, 200, { success: true, data: { url: page.toString() }, meta: meta() });
    }
    if (req.method === "GET" && url.pathname === "/api/auth/accounts") {
      const account = String(req.headers["x-near-account"] ?? "");
      if (!authorized.has(account)) return refuse(res, "NEAR account not authorized");
      const accounts = (connected.get(account) ?? []).map((a) => ({
        platform: a.platform,
        userId: a.userId,
        connectedAt: new Date(0).toISOString(),
        profile: {
          userId: a.userId,
          username: a.username,
          profileImageUrl: null,
          url: `https://x.com/${a.username}`,
        },
      }));
      return json(res, 200, { success: true, data: { accounts }, meta: meta() });
    }
    const oauth = url.pathname.match(/^\/oauth\/([a-z]+)$/);
    if (req.method === "GET" && oauth) {
      return void res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!doctype html><title>Log in to X</title>
<button id="allow">Authorize app</button>
<script>
document.getElementById("allow").onclick = async () => {
  await fetch(location.pathname + "/done" + location.search, { method: "POST" });
  window.opener.postMessage({ type: "AUTH_CALLBACK", data: { success: true, platform: ${JSON.stringify(oauth[1])},
    userId: ${JSON.stringify(FAKE_X_ACCOUNT.userId)}, status: { code: "AUTH_SUCCESS", message: "Authenticated" } } }, "*");
  window.close();
};
</script>`);
    }
    const done = url.pathname.match(/^\/oauth\/([a-z]+)\/done$/);
    if (req.method === "POST" && done) {
      const account = url.searchParams.get("account") ?? "";
      connected.set(account, [{ platform: done[1], ...FAKE_X_ACCOUNT }]);
      return json(res, 200, { success: true });
    }
    json(res, 404, {
      success: false,
      errors: [{ message: "Not Found", code: "NOT_FOUND", recoverable: false }],
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
