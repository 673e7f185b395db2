import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeServer } from "../../test/fakes/server.ts";
import { BlockedUrlError, checkOutboundUrl, isNonPublicAddress, outboundFetch } from "./outbound.ts";

let server: Awaited<ReturnType<typeof startFakeServer>>;
beforeAll(async () => {
  server = await startFakeServer(() => ({ status: 302, headers: { Location: "http://127.0.0.1:9/" } }));
});
afterAll(() => server.close());

describe("non-public addresses", () => {
  it.each([
    "127.0.0.1",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd12:3456::1",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::10.0.0.1",
  ])("%s is not public", (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "%s is public",
    (address) => {
      expect(isNonPublicAddress(address)).toBe(false);
    },
  );
});

describe("checkOutboundUrl", () => {
  it("lets public and allowed hosts through", async () => {
    expect((await checkOutboundUrl("https://93.184.216.34/hook", [])).host).toBe("93.184.216.34");
    expect((await checkOutboundUrl(`${server.url}/x`, ["127.0.0.1"])).port).toBe(String(server.port));
    expect((await checkOutboundUrl("http://[::1]:8080/", ["::1"])).hostname).toBe("[::1]");
    expect((await checkOutboundUrl("http://10.0.0.5/", ["*"])).hostname).toBe("10.0.0.5");
  });

  it("refuses other schemes and names that resolve to loopback", async () => {
    await expect(checkOutboundUrl("gopher://example.com/", [])).rejects.toBeInstanceOf(BlockedUrlError);
    await expect(checkOutboundUrl("http://localhost:3000/", [])).rejects.toThrow(/PRIVATE_HOSTS_ALLOWED/);
    await expect(checkOutboundUrl("http://api.localhost/", [])).rejects.toThrow(/loopback/);
  });
});

describe("outboundFetch", () => {
  it("refuses to connect where a name resolves to a non-public address, whatever was checked before", async () => {
    const error = await outboundFetch([])(`http://localhost:${server.port}/`).catch((e: Error) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error & { cause: { code: string } }).cause.code).toBe("ENONPUBLIC");
  });

  it("does not follow redirects", async () => {
    const response = await outboundFetch(["127.0.0.1"])(`${server.url}/moved`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://127.0.0.1:9/");
  });
});
