import { type LookupAddress, type LookupOptions, lookup } from "node:dns";
import { BlockList, isIP } from "node:net";
import { Agent, buildConnector, type Dispatcher, setGlobalDispatcher } from "undici";
import { SpanKind, withSpan } from "../telemetry/tracing.ts";

/**
 * The one door every request the server makes goes through (decision 0023). Two kinds of address exist:
 *
 * - configured: a base URL the operator set in the environment (X_API_BASE_URL, TELEGRAM_API_BASE_URL, …). Its host
 *   is trusted wherever it is (tests point them at fakes on 127.0.0.1); anything it redirects to is not.
 * - chosen: a URL a feed, a plugin, a user or a remote server picked (webhooks, Supabase projects, RSS sources, a
 *   plugin's own requests, every redirect). Public addresses only, unless the operator names the host in
 *   `PRIVATE_HOSTS_ALLOWED`.
 *
 * Both are enforced twice: the URL is checked before anything is sent, and the dispatcher checks the address each
 * socket actually connects to (an IP written in the URL in any spelling, or whatever a name resolves to at that
 * moment), so neither a caller that skips the first check nor a name that changes its answer gets through.
 */
export class BlockedUrlError extends Error {
  override name = "BlockedUrlError";
  readonly code = "ENONPUBLIC";
}

/** The shape of every fetch the server sends with: the guarded ones this module makes. */
export type Fetch = typeof fetch;

const V4_NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  V4_NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}

/** Inside global unicast (2000::/3), the blocks IANA marks as not globally reachable. */
const V6_NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["3fff::", 20],
] as const) {
  V6_NON_PUBLIC.addSubnet(network, prefix, "ipv6");
}
const V6_GLOBAL_UNICAST = new BlockList();
V6_GLOBAL_UNICAST.addSubnet("2000::", 3, "ipv6");

/** An IPv6 address as eight 16-bit words (a trailing dotted quad included). */
function ipv6Words(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const words = (part: string | undefined) =>
    part ? part.split(":").map((w) => Number.parseInt(w, 16)) : [];
  const front = words(head);
  if (tail === undefined) return front;
  const back = words(tail);
  return [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
}

const v4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join(".");

/**
 * The IPv4 address an IPv6 one stands for, when it is one of the forms that carry one: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) or 6to4 (`2002:AABB:CCDD::`).
 */
function embeddedIpv4(w: number[]): string | null {
  const zeros = (from: number, to: number) => w.slice(from, to).every((word) => word === 0);
  if (zeros(0, 5) && w[5] === 0xffff) return v4Of(w[6], w[7]);
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return v4Of(w[6], w[7]);
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return v4Of(w[6], w[7]);
  if (w[0] === 0x2002) return v4Of(w[1], w[2]);
  return null;
}

/**
 * Whether an IP address is outside the public internet: loopback, unspecified, private, carrier-grade NAT,
 * link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254), unique-local, multicast, documentation,
 * benchmarking and reserved blocks, and IPv6 forms that carry such an IPv4 address. Not an IP address: false.
 */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 4) return V4_NON_PUBLIC.check(bare, "ipv4");
  if (family !== 6) return false;
  const words = ipv6Words(bare);
  const v4 = embeddedIpv4(words);
  if (v4) return V4_NON_PUBLIC.check(v4, "ipv4");
  const canonical = words.map((word) => word.toString(16)).join(":");
  return !V6_GLOBAL_UNICAST.check(canonical, "ipv6") || V6_NON_PUBLIC.check(canonical, "ipv6");
}

/** A host as the allow-lists compare it: no IPv6 brackets, no trailing root dot, lower case. */
const bare = (hostname: string) =>
  hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

function allowed(hostname: string, allowedHosts: readonly string[]): boolean {
  const host = bare(hostname);
  return allowedHosts.includes("*") || allowedHosts.some((entry) => bare(entry) === host);
}

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    lookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}

const refusal = (host: string, address: string) =>
  new BlockedUrlError(
    `${host} is ${address === bare(host) ? "" : `at ${address}, `}a loopback, private or link-local address: use a public host (an operator can allow it in PRIVATE_HOSTS_ALLOWED).`,
  );

/**
 * The URL, when it may be sent to: http(s), and not on a non-public address (an IP written in the URL in any
 * spelling the URL parser accepts, or what its name resolves to now) unless its host is in `allowedHosts`. A
 * name that does not resolve is left for the request itself to report as an outage.
 */
export async function checkOutboundUrl(
  raw: string | URL,
  allowedHosts: readonly string[],
  /** How names are resolved: the system's resolver, unless a test answers for names public DNS would. */
  resolve: (hostname: string) => Promise<LookupAddress[]> = resolveAll,
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedUrlError(`"${String(raw).slice(0, 200)}" is not a URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new BlockedUrlError(`Only http and https URLs are allowed, not ${url.protocol}`);
  }
  const host = bare(url.hostname);
  if (allowed(host, allowedHosts)) return url;
  if (isIP(host)) {
    if (isNonPublicAddress(host)) throw refusal(url.host, host);
    return url;
  }
  if (host === "localhost" || host.endsWith(".localhost")) throw refusal(url.host, "127.0.0.1");
  const addresses = await resolve(host).catch(() => []);
  const blocked = addresses.find((entry) => isNonPublicAddress(entry.address));
  if (blocked) throw refusal(url.host, blocked.address);
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
      if (blocked) return callback(refusal(hostname, blocked.address), []);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

const dispatchers = new Map<string, Dispatcher>();

/**
 * An HTTP dispatcher whose sockets can only reach public addresses or the allowed hosts. Node's sockets skip
 * `lookup` for a host that is already an IP address, so the connector checks those itself.
 */
export function guardedDispatcher(allowedHosts: readonly string[]): Dispatcher {
  const key = allowedHosts.map(bare).sort().join(",");
  let dispatcher = dispatchers.get(key);
  if (!dispatcher) {
    const connectSocket = buildConnector({
      lookup: guardedLookup(allowedHosts),
    } as buildConnector.BuildOptions);
    const connect: buildConnector.connector = (options, callback) => {
      const host = bare(options.hostname);
      if (isIP(host) && !allowed(host, allowedHosts) && isNonPublicAddress(host)) {
        return callback(refusal(host, host), null);
      }
      return connectSocket(options, callback);
    };
    dispatcher = new Agent({ connect });
    dispatchers.set(key, dispatcher);
  }
  return dispatcher;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;

/** What a redirect keeps of the request: 303 (and 301/302 after a POST) become a GET without a body. */
function redirectedInit(init: RequestInit, status: number, sameOrigin: boolean): RequestInit {
  const method = (init.method ?? "GET").toUpperCase();
  const toGet = status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST";
  const headers = new Headers(init.headers);
  if (!sameOrigin) {
    for (const name of ["authorization", "cookie", "proxy-authorization"]) headers.delete(name);
  }
  if (toGet) {
    for (const name of ["content-type", "content-length", "content-encoding"]) headers.delete(name);
    return { ...init, method: "GET", body: undefined, headers };
  }
  return { ...init, headers };
}

export interface GuardedFetchOptions {
  /**
   * How many redirects to follow, each one checked like the first request (0: the 3xx answer is returned for
   * the caller to read). A body that is a stream cannot be sent twice, so only string/bytes bodies follow 307/308.
   */
  redirects?: number;
}

/**
 * A fetch through the guard: the URL is checked before sending (`checkOutboundUrl`) and every socket at connect;
 * hosts in `allowedHosts` may be anywhere, every other host only on a public address.
 */
export function guardedFetch(allowedHosts: readonly string[], options: GuardedFetchOptions = {}): Fetch {
  const dispatcher = guardedDispatcher(allowedHosts);
  const redirects = Math.min(options.redirects ?? 0, MAX_REDIRECTS);
  return async (input, init = {}) => {
    let url = await checkOutboundUrl(input instanceof Request ? input.url : input, allowedHosts);
    let request: RequestInit = init;
    const method = (init.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    // Only the host is recorded: paths and queries can carry credentials (a Telegram bot token, an API key).
    return withSpan(
      `HTTP ${method}`,
      { "http.request.method": method, "server.address": url.hostname },
      async (span) => {
        const response = await followRedirects();
        span.setAttribute("http.response.status_code", response.status);
        return response;
      },
      { kind: SpanKind.CLIENT },
    );

    async function followRedirects(): Promise<Response> {
      for (let hop = 0; ; hop++) {
        // Node's fetch is undici's and takes its `dispatcher`; the global RequestInit type does not say so.
        const response = await fetch(url, {
          ...request,
          redirect: "manual",
          dispatcher,
        } as unknown as RequestInit).catch((error: unknown) => {
          // undici reports a refused connection as "fetch failed" with the guard's error as its cause.
          throw error instanceof TypeError && error.cause instanceof BlockedUrlError ? error.cause : error;
        });
        const location = response.headers.get("location");
        if (hop >= redirects || !REDIRECT_STATUSES.has(response.status) || !location) return response;
        await response.body?.cancel();
        const next = await checkOutboundUrl(new URL(location, url), allowedHosts);
        request = redirectedInit(request, response.status, next.origin === url.origin);
        url = next;
      }
    }
  };
}

/** The fetch for URLs a feed, plugin, user or remote server chose: public only but for PRIVATE_HOSTS_ALLOWED. */
export function outboundFetch(privateHostsAllowed: readonly string[], options?: GuardedFetchOptions): Fetch {
  return guardedFetch(privateHostsAllowed, options);
}

/**
 * The fetch for an operator-configured service (its base URL from the environment): that host is reached
 * wherever it is, and up to five redirects are followed, each to that host or a public address only.
 */
export function configuredFetch(baseUrl: string | URL): Fetch {
  return guardedFetch([new URL(baseUrl).hostname], { redirects: 5 });
}

/**
 * Guards the process's own `fetch` too, for libraries that send with it and take no fetch of ours (the NEAR SDK's
 * JSON-RPC provider, which also reaches a feed's own `rpcUrl`): hosts of the operator's configured base URLs and of
 * `PRIVATE_HOSTS_ALLOWED` may be anywhere, as in every other guarded fetch; everything else only public.
 * Installed by the server process at start-up; test processes keep the plain fetch their fakes need.
 */
export function guardProcessFetch(
  configuredBaseUrls: ReadonlyArray<string | undefined>,
  privateHostsAllowed: readonly string[] = [],
): void {
  const hosts = configuredBaseUrls.flatMap((url) => (url ? [new URL(url).hostname] : []));
  setGlobalDispatcher(guardedDispatcher([...new Set([...hosts, ...privateHostsAllowed])]));
}
