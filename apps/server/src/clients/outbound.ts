import { type LookupAddress, type LookupOptions, lookup } from "node:dns";
import { BlockList, isIP } from "node:net";
import { Agent, type Dispatcher } from "undici";

/**
 * Calls to URLs a feed's config chooses (webhooks, Supabase projects) must not reach the operator's own network:
 * loopback, private, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT and other non-public
 * ranges are refused unless the operator names the host in `PRIVATE_HOSTS_ALLOWED`.
 */
export class BlockedUrlError extends Error {
  override name = "BlockedUrlError";
}

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");
}

/** The IPv4 address an IPv6 one carries (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Whether an IP address is outside the public internet. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, "ipv4");
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    return v4 ? NON_PUBLIC.check(v4, "ipv4") : NON_PUBLIC.check(address, "ipv6");
  }
  return false;
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, "").toLowerCase();

function allowed(hostname: string, allowedHosts: readonly string[]): boolean {
  return allowedHosts.includes("*") || allowedHosts.some((host) => bare(host) === bare(hostname));
}

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    lookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}

/**
 * The URL, when a feed may send to it: http(s), and not on a non-public address (an IP written in the URL, or
 * what its name resolves to now). A name that does not resolve is left for the request itself to report as an
 * outage; the dispatcher below checks again at connect time, so a name that changes its answer is caught too.
 */
export async function checkOutboundUrl(raw: string, allowedHosts: readonly string[]): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedUrlError(`"${raw}" is not a URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new BlockedUrlError(`Only http and https URLs are allowed, not ${url.protocol}`);
  }
  const host = bare(url.hostname);
  if (allowed(host, allowedHosts)) return url;
  const refuse = (address: string) =>
    new BlockedUrlError(
      `${url.host} is ${address === host ? "" : `at ${address}, `}a loopback, private or link-local address: use a public host (an operator can allow it in PRIVATE_HOSTS_ALLOWED).`,
    );
  if (isIP(host)) {
    if (isNonPublicAddress(host)) throw refuse(host);
    return url;
  }
  if (host === "localhost" || host.endsWith(".localhost")) throw refuse("127.0.0.1");
  const addresses = await resolveAll(host).catch(() => []);
  const blocked = addresses.find((entry) => isNonPublicAddress(entry.address));
  if (blocked) throw refuse(blocked.address);
  return url;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A dns.lookup for sockets that refuses non-public answers for hosts the operator has not allowed. */
function guardedLookup(allowedHosts: readonly string[]) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const blocked = allowed(hostname, allowedHosts)
        ? undefined
        : addresses.find((entry) => isNonPublicAddress(entry.address));
      if (blocked) {
        const refused: NodeJS.ErrnoException = new BlockedUrlError(
          `${hostname} resolves to ${blocked.address}, a non-public address.`,
        );
        refused.code = "ENONPUBLIC";
        return callback(refused, []);
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

const dispatchers = new Map<string, Dispatcher>();

/** An HTTP dispatcher whose connections can only reach public addresses (or the allowed hosts). */
function outboundDispatcher(allowedHosts: readonly string[]): Dispatcher {
  const key = allowedHosts.join(",");
  let dispatcher = dispatchers.get(key);
  if (!dispatcher) {
    dispatcher = new Agent({ connect: { lookup: guardedLookup(allowedHosts) } });
    dispatchers.set(key, dispatcher);
  }
  return dispatcher;
}

/**
 * A fetch for URLs a feed chose: every connection goes through `outboundDispatcher`, and redirects are not
 * followed (a redirect could point anywhere; the caller reports it).
 */
export function outboundFetch(allowedHosts: readonly string[]): typeof fetch {
  const dispatcher = outboundDispatcher(allowedHosts);
  // Node's fetch is undici's and takes its `dispatcher`; the global RequestInit type does not say so.
  return (input, init) => fetch(input, { ...init, redirect: "manual", dispatcher } as unknown as RequestInit);
}
