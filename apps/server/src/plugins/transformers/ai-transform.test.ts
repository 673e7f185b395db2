import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAi } from "../../../test/fake-openai.ts";
import { PluginError } from "../types.ts";
import { createAiTransform } from "./ai-transform.ts";

let ai: Awaited<ReturnType<typeof startFakeOpenAi>>;
let transform: ReturnType<typeof createAiTransform>;

const context = (timeoutMs = 90_000) => ({
  signal: AbortSignal.timeout(timeoutMs),
  logger: pino({ level: "silent" }),
  feedId: "ai",
  submissionId: "1",
  jobId: "j",
  idempotencyKey: null,
});

const schema = {
  title: { type: "string" as const, description: "A headline" },
  tags: { type: "array" as const, items: { type: "string" as const } },
};

beforeAll(async () => {
  ai = await startFakeOpenAi();
  transform = createAiTransform({ baseUrl: ai.baseUrl, defaultModel: "test/model" });
});
afterAll(() => ai.close());
beforeEach(() => {
  ai.requests.length = 0;
});

describe("ai-transform against an OpenAI-compatible API", () => {
  it("sends the prompt and input with a structured-output schema, and returns the validated object", async () => {
    ai.reply(JSON.stringify({ title: "Cheaper solar", tags: ["energy"] }));
    const output = await transform.transform(
      { content: "Solar got cheaper", username: "amy" },
      { prompt: "Summarise", apiKey: "sk-test-key", outputFormat: "json", schema, temperature: 0.2 },
      context(),
    );
    expect(output).toEqual({ title: "Cheaper solar", tags: ["energy"] });
    const [request] = ai.requests;
    expect(request.authorization).toBe("Bearer sk-test-key");
    expect(request.model).toBe("test/model");
    expect(request.temperature).toBe(0.2);
    expect(request.messages[0]).toEqual({ role: "system", content: "Summarise" });
    expect(JSON.parse(request.messages[1].content)).toEqual({
      content: "Solar got cheaper",
      username: "amy",
    });
    expect(request.response_format).toMatchObject({
      type: "json_schema",
      json_schema: {
        name: "curate_output",
        strict: true,
        schema: {
          type: "object",
          required: ["title", "tags"],
          additionalProperties: false,
          properties: { title: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
        },
      },
    });
  });

  it("refuses a reply that breaks the schema, saying which field", async () => {
    ai.reply(JSON.stringify({ title: 42 }));
    const error = await transform
      .transform({}, { prompt: "p", apiKey: "k", outputFormat: "json", schema }, context())
      .catch((e) => e);
    expect(error).toBeInstanceOf(PluginError);
    expect(error).toMatchObject({ code: "AI_REPLY_INVALID", retryable: false });
    expect((error as PluginError).message).toMatch(/title/);
  });

  it("retries a 429 (the SDK's bounded retries, honouring retry-after) and then succeeds", async () => {
    ai.fail(429, { "retry-after-ms": "10" });
    ai.reply("A plain summary.");
    const output = await transform.transform(
      "text in",
      { prompt: "p", apiKey: "k", outputKey: "summary" },
      context(),
    );
    expect(output).toEqual({ summary: "A plain summary." });
    expect(ai.requests).toHaveLength(2);
  });

  it("turns persistent rate limiting and a bad key into step errors that say what to fix", async () => {
    for (let i = 0; i < 3; i++) ai.fail(429, { "retry-after-ms": "5" });
    await expect(transform.transform("x", { prompt: "p", apiKey: "k" }, context())).rejects.toMatchObject({
      code: "AI_RATE_LIMITED",
      retryable: true,
    });
    ai.fail(401);
    await expect(transform.transform("x", { prompt: "p", apiKey: "k" }, context())).rejects.toMatchObject({
      code: "AI_UNAUTHORIZED",
      retryable: false,
      message: expect.stringMatching(/refused the key/),
    });
  });

  it("stops at its timeout with a retryable error", async () => {
    for (let i = 0; i < 3; i++) ai.hang();
    const started = Date.now();
    const error = await transform
      .transform("x", { prompt: "p", apiKey: "k", timeoutMs: 1000 }, context())
      .catch((e) => e);
    expect(error).toMatchObject({ code: "AI_TIMEOUT", retryable: true });
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
