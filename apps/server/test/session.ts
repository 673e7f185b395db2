import type { TestServer } from "./harness.ts";
import { newKey, signToken, type TestKey } from "./near.ts";

/**
 * Signs in through the real endpoints with an implicit-account key; returns the Cookie header to send. Any server
 * answering the API will do: the test's own, or a proxy in front of several.
 */
export async function signIn(
  server: Pick<TestServer, "json" | "request">,
  key: TestKey = newKey(),
  accountId = key.implicitAccountId,
) {
  const started = await server.json("/api/auth/initiate-login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ accountId }),
  });
  const token = signToken({
    key,
    accountId,
    nonce: started.body.data.nonce,
    recipient: started.body.data.recipient,
  });
  const verified = await server.request("/api/auth/verify-login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token, accountId }),
  });
  if (verified.status !== 200) throw new Error(`sign-in failed: ${verified.status} ${await verified.text()}`);
  const cookie = verified.headers.getSetCookie()[0]?.split(";")[0];
  if (!cookie) throw new Error("no session cookie");
  return { cookie, accountId, key };
}

/** Headers of a same-origin browser request carrying the session cookie. */
export function sessionHeaders(server: Pick<TestServer, "baseUrl">, cookie: string): Record<string, string> {
  return { Cookie: cookie, Origin: server.baseUrl, "Content-Type": "application/json" };
}
