import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The key the e2e server hands the AI step through the `{{E2E_AI_KEY}}` placeholder. */
export const E2E_AI_KEY = "sk-e2e";

/** A post whose text holds this word makes the fake answer JSON that breaks the step's output schema. */
export const BREAK_WORD = "BREAKME";

interface ChatBody {
  model?: string;
  messages?: Array<{ role: string; content: string }>;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** A reply in the shape the journeys' AI steps ask for: `{ title, summary }`, or a broken one on request. */
function replyTo(body: ChatBody): string {
  const user = body.messages?.findLast((message) => message.role === "user")?.content ?? "";
  if (user.includes(BREAK_WORD)) return JSON.stringify({ title: 42 });
  return JSON.stringify({
    title: "A fake headline",
    summary: `A fake summary of ${user.length} characters.`,
  });
}

/**
 * A local OpenAI-compatible chat-completions API (POST {base}/chat/completions) in the real wire format, so the
 * journeys' AI steps run without the internet. Its answer depends only on the request: the same input always
 * passes or always fails, which is what lets a journey fix a failed step by editing its input.
 */
export async function startFakeAi() {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        send(res, 404, { error: { message: "Not found", type: "invalid_request_error" } });
        return;
      }
      if (req.headers.authorization !== `Bearer ${E2E_AI_KEY}`) {
        send(res, 401, { error: { message: "Incorrect API key provided.", type: "invalid_request_error" } });
        return;
      }
      let body: ChatBody;
      try {
        body = JSON.parse(raw) as ChatBody;
      } catch {
        send(res, 400, { error: { message: "The body is not JSON.", type: "invalid_request_error" } });
        return;
      }
      send(res, 200, {
        id: `chatcmpl-e2e-${Date.now()}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model ?? "fake",
        choices: [
          { index: 0, message: { role: "assistant", content: replyTo(body) }, finish_reason: "stop" },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
