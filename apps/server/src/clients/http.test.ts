import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callExternal, ExternalServiceError } from "./http.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = (_req, res) => res.end("ok");
let hits = 0;
let baseUrl = "";
const server = createServer((req, res) => {
  hits++;
  handler(req, res);
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const waits: number[] = [];
const options = {
  service: "Fake",
  reach: "configured" as const,
  sleep: async (ms: number) => void waits.push(ms),
};

function answerInTurn(...statuses: number[]): Handler {
  let i = 0;
  return (_req, res) => {
    res.statusCode = statuses[Math.min(i++, statuses.length - 1)];
    res.end(String(res.statusCode));
  };
}

describe("callExternal", () => {
  it("retries 429 and 5xx with growing waits, then returns the answer", async () => {
    hits = 0;
    waits.length = 0;
    handler = answerInTurn(503, 429, 200);
    const response = await callExternal(`${baseUrl}/a`, {}, { ...options, retries: 3 });
    expect(response.status).toBe(200);
    expect(hits).toBe(3);
    expect(waits).toEqual([1000, 2000]);
  });

  it("honours Retry-After", async () => {
    waits.length = 0;
    let first = true;
    handler = (_req, res) => {
      if (first) {
        first = false;
        res.writeHead(429, { "Retry-After": "7" }).end();
      } else res.end("ok");
    };
    await callExternal(`${baseUrl}/b`, {}, { ...options, retries: 1 });
    expect(waits).toEqual([7000]);
  });

  it("returns a non-retryable answer as it is, for the caller to read", async () => {
    hits = 0;
    handler = answerInTurn(404);
    const response = await callExternal(`${baseUrl}/c`, {}, { ...options, retries: 5 });
    expect(response.status).toBe(404);
    expect(hits).toBe(1);
  });

  it("gives up after the bounded retries with a retryable error naming the service", async () => {
    hits = 0;
    handler = answerInTurn(502);
    const error = await callExternal(`${baseUrl}/d`, {}, { ...options, retries: 2 }).catch((e) => e);
    expect(error).toBeInstanceOf(ExternalServiceError);
    expect(error).toMatchObject({ service: "Fake", status: 502, retryable: true });
    expect(hits).toBe(3);
  });

  it("treats a timeout and a refused connection as outages, not answers", async () => {
    handler = () => {};
    const slow = await callExternal(`${baseUrl}/e`, {}, { ...options, timeoutMs: 100 }).catch((e) => e);
    expect(slow).toMatchObject({ status: 0, retryable: true, message: expect.stringMatching(/timed out/) });
    const closed = await callExternal("http://127.0.0.1:9/", {}, options).catch((e) => e);
    expect(closed).toMatchObject({
      status: 0,
      retryable: true,
      message: expect.stringMatching(/could not be reached/),
    });
  });
  it("reads a wait from the answer's body when the service puts it there", async () => {
    waits.length = 0;
    let first = true;
    handler = (_req, res) => {
      if (first) {
        first = false;
        res.writeHead(429, { "content-type": "application/json" }).end(JSON.stringify({ retry_after: 1.5 }));
      } else res.end("ok");
    };
    const waitHint = async (response: Response) =>
      ((await response.clone().json()) as { retry_after: number }).retry_after * 1000;
    await callExternal(`${baseUrl}/f`, {}, { ...options, retries: 1, waitHint });
    expect(waits).toEqual([1500]);
  });

  it("stops at once when the caller's signal aborts, with the caller's reason", async () => {
    hits = 0;
    handler = () => {};
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("step out of time")), 50);
    const error = await callExternal(
      `${baseUrl}/g`,
      { signal: controller.signal },
      { ...options, retries: 3 },
    ).catch((e) => e);
    expect(error).toMatchObject({ message: "step out of time" });
    expect(hits).toBe(1);
  });
});
