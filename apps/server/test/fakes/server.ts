import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as a fake service received it. */
export interface ReceivedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body exactly as sent. */
  raw: string;
  /** The body parsed as JSON, when it is JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read bodies by assertion
  body: any;
  /** When it arrived (ms since the epoch), for checking how requests were spaced. */
  receivedAt: number;
}

/** A fake's answer; `hang` never answers (until the fake closes), as a service that stopped responding. */
export type FakeAnswer =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { hang: true };

export type FakeHandler = (request: ReceivedRequest) => FakeAnswer | Promise<FakeAnswer>;

/**
 * A local HTTP server that records every request and answers with `handler`'s answer (JSON bodies unless a
 * content-type says otherwise). The service fakes in this folder are built on it. It listens on `host`: 127.0.0.1,
 * or `::` to take IPv4 and IPv6 loopback alike (a target reached by every spelling of this machine's address).
 */
export async function startFakeServer(handler: FakeHandler, { host = "127.0.0.1" } = {}) {
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const url = new URL(req.url ?? "/", "http://fake");
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const request: ReceivedRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        raw,
        body,
        receivedAt: Date.now(),
      };
      requests.push(request);
      let answer: FakeAnswer;
      try {
        answer = await handler(request);
      } catch (error) {
        answer = { status: 500, body: { message: `fake failed: ${(error as Error).message}` } };
      }
      if ("hang" in answer) {
        hanging.add(res);
        return;
      }
      const headers = { "content-type": "application/json", ...answer.headers };
      const text =
        answer.body === undefined
          ? ""
          : typeof answer.body === "string" && !headers["content-type"].includes("json")
            ? answer.body
            : JSON.stringify(answer.body);
      res.writeHead(answer.status, headers).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Queued answers that take precedence over a fake's normal behaviour, one per request, in order. */
export function answerQueue() {
  const queued: FakeAnswer[] = [];
  return {
    push(...answers: FakeAnswer[]) {
      queued.push(...answers);
    },
    next: () => queued.shift(),
    clear() {
      queued.length = 0;
    },
  };
}
