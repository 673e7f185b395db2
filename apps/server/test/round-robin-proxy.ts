import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The proxy an operator puts in front of N API processes, as small as one can be: each request goes to the next
 * process in turn, headers and body as they came. It keeps no session affinity, so whatever a process must know
 * of an earlier request has to be in the database.
 */
export async function startRoundRobinProxy() {
  let targets: URL[] = [];
  let next = 0;
  /** Which target answered each request, in order (its base URL). */
  const routed: string[] = [];
  const server = createServer((incoming, outgoing) => {
    if (targets.length === 0) {
      outgoing.writeHead(503).end("no API process behind the proxy");
      return;
    }
    const target = targets[next++ % targets.length];
    routed.push(target.origin);
    const forwarded = request(
      {
        hostname: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    routed,
    targets: () => targets.map((url) => url.origin),
    /** The API processes to take turns over, by base URL. */
    route(urls: string[]) {
      targets = urls.map((url) => new URL(url));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
