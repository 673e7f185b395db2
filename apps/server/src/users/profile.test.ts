import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { png } from "../../test/images.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";

let server: TestServer;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  cookie = (await signIn(server)).cookie;
});

afterAll(() => server.close());

const patchMe = (body: unknown, withCookie = true) =>
  server.json("/api/users/me", {
    method: "PATCH",
    headers: withCookie
      ? sessionHeaders(server, cookie)
      : { "Content-Type": "application/json", Origin: server.baseUrl },
    body: JSON.stringify(body),
  });

async function uploadPng(): Promise<string> {
  const form = new FormData();
  form.set("file", new Blob([png()], { type: "image/png" }), "me.png");
  const { body } = await server.json("/api/upload", {
    method: "POST",
    headers: { Cookie: cookie, Origin: server.baseUrl },
    body: form,
  });
  return body.data.url;
}

describe("PATCH /api/users/me", () => {
  it("sets the profile image to an upload of this server, shows it, and removes it with null", async () => {
    const path = await uploadPng();
    const set = await patchMe({ profileImage: path });
    expect(set.status).toBe(200);
    expect(set.body.data.profileImage).toBe(path);
    const me = await server.json("/api/users/me", { headers: { Cookie: cookie } });
    expect(me.body.data.profileImage).toBe(path);
    const removed = await patchMe({ profileImage: null });
    expect(removed.body.data.profileImage).toBeNull();
  });

  it.each([
    "https://tracker.example/me.png",
    `http://localhost:3000/uploads/${"a".repeat(64)}.png`,
    "/uploads/../secrets.png",
    "javascript:alert(1)",
  ])("refuses %s: only a path POST /api/upload answered", async (profileImage) => {
    const { status, body } = await patchMe({ profileImage });
    expect(status).toBe(400);
    expect(body.error.details).toEqual([
      { path: "profileImage", message: "Invalid URL format for profile image" },
    ]);
  });

  it("refuses the path of an image this server does not hold, anything else, and anonymous callers", async () => {
    const missing = await patchMe({ profileImage: `/uploads/${"d".repeat(64)}.png` });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("Upload the image first: this server holds no such image.");
    expect((await patchMe({ profileImage: null, username: "someone" })).status).toBe(400);
    expect((await patchMe({ profileImage: null }, false)).status).toBe(401);
  });
});
