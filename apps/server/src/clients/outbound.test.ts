import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeServer } from "../../test/fakes/server.ts";
import { callExternal } from "./http.ts";
import {
  BlockedUrlError,
  checkOutboundUrl,
  configuredFetch,
  guardedDispatcher,
  isNonPublicAddress,
  outboundFetch,
} from "./outbound.ts";

let server: Awaited<ReturnType<typeof startFakeServer>>;
let redirectTo = "";
beforeAll(async () => {
  // Listens on IPv4 and IPv6 loopback: every spelling of this machine reaches it unless the guard stops it.
  server = await startFakeServer(
    (request) =>
      request.path === "/moved"
        ? { status: 302, headers: { Location: redirectTo } }
        : { status: 200, body: { path: request.path } },
    { host: "::" },
  );
});
afterAll(() => server.close());

describe("non-public addresses", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "192.88.99.1",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "[::1]",
    "::127.0.0.1",
    "::7f00:1",
    "fe80::1",
    "fe80::1%eth0",
    "fec0::1",
    "fd12:3456::1",
    "fd00:ec2::254",
    "ff02::1",
    "100::1",
    "2001::1",
    "2001:db8::1",
    "3fff::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "::ffff:0:7f00:1",
    "64:ff9b::10.0.0.1",
    "64:ff9b::7f00:1",
    "64:ff9b:1::1",
    "2002:7f00:1::",
    "2002:a9fe:a9fe::1",
  ])("%s is not public", (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    "93.184.216.34",
    "1.1.1.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80e::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
  ])("%s is public", (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

/** Every spelling of this machine's loopback address a URL parser takes, and names that resolve to it. */
const loopbackUrls = (port: number) => [
  `http://127.0.0.1:${port}/`,
  `http://127.1:${port}/`,
  `http://2130706433:${port}/`,
  `http://0x7f.0.0.1:${port}/`,
  `http://0177.0.0.1:${port}/`,
  `http://0.0.0.0:${port}/`,
  `http://[::1]:${port}/`,
  `http://[::]:${port}/`,
  `http://[::ffff:127.0.0.1]:${port}/`,
  `http://[::127.0.0.1]:${port}/`,
  `http://[64:ff9b::127.0.0.1]:${port}/`,
  `http://[2002:7f00:1::]:${port}/`,
  `http://localhost:${port}/`,
  `http://LOCALHOST.:${port}/`,
  `http://api.localhost:${port}/`,
];

describe("checkOutboundUrl", () => {
  it("lets public and allowed hosts through", async () => {
    expect((await checkOutboundUrl("https://93.184.216.34/hook", [])).host).toBe("93.184.216.34");
    expect((await checkOutboundUrl(`${server.url}/x`, ["127.0.0.1"])).port).toBe(String(server.port));
    expect((await checkOutboundUrl("http://[::1]:8080/", ["::1"])).hostname).toBe("[::1]");
    expect((await checkOutboundUrl("http://10.0.0.5/", ["*"])).hostname).toBe("10.0.0.5");
    expect((await checkOutboundUrl("http://localhost./", ["localhost"])).hostname).toBe("localhost.");
  });

  it("refuses other schemes and every spelling of a non-public address", async () => {
    await expect(checkOutboundUrl("gopher://example.com/", [])).rejects.toBeInstanceOf(BlockedUrlError);
    await expect(checkOutboundUrl("http://169.254.169.254/latest/", [])).rejects.toThrow(/link-local/);
    await expect(checkOutboundUrl("http://[fd00:ec2::254]/", [])).rejects.toThrow(/PRIVATE_HOSTS_ALLOWED/);
    for (const url of loopbackUrls(server.port)) {
      await expect(checkOutboundUrl(url, []), url).rejects.toBeInstanceOf(BlockedUrlError);
    }
  });

  it("resolves a name and refuses it when any of its answers is not public, unless the name is allowed", async () => {
    const answers: Record<string, string[]> = {
      "intranet.example": ["10.1.2.3"],
      "split.example": ["93.184.216.34", "fd00::7"],
      "metadata.example": ["169.254.169.254"],
      "mapped.example": ["::ffff:127.0.0.1"],
      "public.example": ["93.184.216.34", "2606:2800:220:1::1"],
    };
    const resolver = async (hostname: string) =>
      (answers[hostname] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    for (const host of ["intranet.example", "split.example", "metadata.example", "mapped.example"]) {
      await expect(checkOutboundUrl(`https://${host}/hook`, [], resolver), host).rejects.toThrow(
        new RegExp(`^${host.replace(".", "\\.")} is at ${answers[host].find((a) => a !== "93.184.216.34")}`),
      );
    }
    expect((await checkOutboundUrl("https://public.example/hook", [], resolver)).host).toBe("public.example");
    expect(
      (await checkOutboundUrl("https://intranet.example/hook", ["intranet.example"], resolver)).host,
    ).toBe("intranet.example");
  });

  it("matches the allow-list by name: an allowed name does not allow its address written as an IP", async () => {
    await expect(checkOutboundUrl(`http://127.0.0.1:${server.port}/`, ["localhost"])).rejects.toThrow(
      BlockedUrlError,
    );
    await expect(checkOutboundUrl(`http://2130706433:${server.port}/`, ["localhost"])).rejects.toThrow(
      BlockedUrlError,
    );
  });
});

describe("the guarded dispatcher, for a caller that skipped every check", () => {
  const connect = (url: string, allowedHosts: string[]) =>
    fetch(url, { dispatcher: guardedDispatcher(allowedHosts) } as unknown as RequestInit).then(
      (response) => response.status,
      (error: Error & { cause?: unknown }) => error.cause,
    );

  it("refuses at connect an address written as an IP literal, in IPv4 and IPv6", async () => {
    for (const url of [
      `${server.url}/`,
      `http://[::1]:${server.port}/`,
      `http://[::ffff:7f00:1]:${server.port}/`,
    ]) {
      expect(await connect(url, []), url).toBeInstanceOf(BlockedUrlError);
    }
    expect(server.requests).toHaveLength(0);
  });

  it("refuses at connect a name that resolves to a non-public address", async () => {
    expect(await connect(`http://localhost:${server.port}/`, [])).toBeInstanceOf(BlockedUrlError);
    expect(server.requests).toHaveLength(0);
  });

  it("connects to a host the operator allowed", async () => {
    expect(await connect(`${server.url}/allowed`, ["127.0.0.1"])).toBe(200);
    expect(await connect(`http://localhost:${server.port}/allowed`, ["localhost"])).toBe(200);
  });
});

describe("redirects", () => {
  it("are returned, not followed, unless the caller asks", async () => {
    redirectTo = `${server.url}/elsewhere`;
    const response = await outboundFetch(["127.0.0.1"])(`${server.url}/moved`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(redirectTo);
  });

  it("are followed when asked, each hop checked like the first request", async () => {
    const fetchTwice = outboundFetch(["127.0.0.1"], { redirects: 2 });
    redirectTo = `${server.url}/landed`;
    const landed = await fetchTwice(`${server.url}/moved`);
    expect(await landed.json()).toEqual({ path: "/landed" });
    const before = server.requests.length;
    for (const target of [`http://[::1]:${server.port}/inside`, `http://localhost:${server.port}/inside`]) {
      redirectTo = target;
      await expect(fetchTwice(`${server.url}/moved`), target).rejects.toBeInstanceOf(BlockedUrlError);
    }
    // Only the two redirecting answers were asked for: nothing reached the targets.
    expect(server.requests.slice(before).map((r) => r.path)).toEqual(["/moved", "/moved"]);
  });

  it("from a configured service reach only that host or public addresses", async () => {
    const configured = configuredFetch(server.url);
    redirectTo = `${server.url}/same-host`;
    expect(await (await configured(`${server.url}/moved`)).json()).toEqual({ path: "/same-host" });
    redirectTo = "http://169.254.169.254/latest/meta-data/";
    await expect(configured(`${server.url}/moved`)).rejects.toThrow(/link-local/);
    // Through callExternal the refusal is the guard's answer, not an outage to retry.
    const attempts = server.requests.length;
    const refused = await callExternal(
      `${server.url}/moved`,
      {},
      {
        service: "Fake",
        reach: "configured",
        retries: 3,
        sleep: async () => {},
      },
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BlockedUrlError);
    expect(server.requests.length).toBe(attempts + 1);
  });
});
