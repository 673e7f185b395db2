import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  temperature?: number;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict?: boolean } };
  authorization: string | undefined;
}

type Reply =
  | { kind: "content"; content: string }
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: "hang" };

/**
 * A local OpenAI-compatible chat-completions API (POST {base}/chat/completions), answering with queued replies in
 * the real wire format: `choices[0].message.content`, error bodies `{ error: { message, type, code } }`.
 */
export async function startFakeOpenAi() {
  const requests: ChatRequest[] = [];
  const replies: Reply[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "Not found" } }));
        return;
      }
      const parsed = JSON.parse(body);
      requests.push({ ...parsed, authorization: req.headers.authorization });
      const reply = replies.shift() ?? { kind: "content", content: "{}" };
      if (reply.kind === "hang") {
        hanging.push(res);
        return;
      }
      if (reply.kind === "status") {
        res
          .writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
          .end(JSON.stringify(reply.body ?? { error: { message: `status ${reply.status}`, type: "error" } }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: parsed.model,
          choices: [
            { index: 0, message: { role: "assistant", content: reply.content }, finish_reason: "stop" },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    reply(content: string) {
      replies.push({ kind: "content", content });
    },
    fail(status: number, headers?: Record<string, string>) {
      replies.push({
        kind: "status",
        status,
        headers,
        body: { error: { message: `failed with ${status}`, type: "server_error" } },
      });
    },
    hang() {
      replies.push({ kind: "hang" });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
