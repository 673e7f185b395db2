import { type AiFieldSchema, type AiTransformConfig, aiTransformConfigSchema } from "@curate/core";
import OpenAI from "openai";
import { z } from "zod";
import { configuredFetch } from "../../clients/outbound.ts";
import { PluginError, type TransformerPlugin } from "../types.ts";

export interface AiTransformSettings {
  /** An OpenAI-compatible chat-completions API (OpenRouter's by default). */
  baseUrl: string;
  defaultModel: string;
  /** Asks for one call from the feed's hourly AI budget: what one feed can spend of a paid service is capped. */
  budget?: (feedId: string) => Promise<{ allowed: boolean; retryAfterMs: number }>;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const SDK_RETRIES = 2;
const MAX_INPUT_CHARS = 50_000;

function jsonSchemaOf(fields: Record<string, AiFieldSchema>): Record<string, unknown> {
  const convert = (field: AiFieldSchema): Record<string, unknown> => {
    const schema: Record<string, unknown> = { type: field.type };
    if (field.description) schema.description = field.description;
    if (field.type === "array") schema.items = field.items ? convert(field.items) : {};
    if (field.type === "object") {
      const properties = field.properties ?? {};
      schema.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, convert(v)]));
      schema.required = Object.keys(properties);
      schema.additionalProperties = false;
    }
    return schema;
  };
  return convert({ type: "object", properties: fields });
}

function inputText(input: unknown): string {
  const text = typeof input === "string" ? input : JSON.stringify(input, null, 2);
  return text.length > MAX_INPUT_CHARS ? text.slice(0, MAX_INPUT_CHARS) : text;
}

/** Turns the SDK's errors into step errors that say what to fix, retryable only where waiting can help. */
function stepError(error: unknown): PluginError {
  if (error instanceof PluginError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new PluginError("The AI service did not answer in time.", {
      code: "AI_TIMEOUT",
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new PluginError("The AI service could not be reached.", {
      code: "AI_UNREACHABLE",
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    if (status === 401 || status === 403) {
      return new PluginError(
        `The AI service refused the key (${status}): check the apiKey placeholder's value.`,
        {
          code: "AI_UNAUTHORIZED",
          cause: error,
        },
      );
    }
    if (status === 429) {
      return new PluginError("The AI service is rate limiting this key (429).", {
        code: "AI_RATE_LIMITED",
        retryable: true,
        cause: error,
      });
    }
    if (status >= 500) {
      return new PluginError(`The AI service failed (${status}).`, {
        code: "AI_UNAVAILABLE",
        retryable: true,
        cause: error,
      });
    }
    return new PluginError(`The AI service refused the request (${status}): ${error.message}`, {
      code: "AI_REJECTED",
      cause: error,
    });
  }
  if (error instanceof Error && error.name === "AbortError") {
    return new PluginError("The AI step was stopped before the service answered.", {
      code: "AI_TIMEOUT",
      retryable: true,
      cause: error,
    });
  }
  return new PluginError(`The AI step failed: ${error instanceof Error ? error.message : String(error)}`, {
    code: "AI_FAILED",
    cause: error,
  });
}

/**
 * Summarises, tags or rewrites the input with a chat-completions model (the official OpenAI SDK against any
 * compatible API). "json" replies are objects, checked against the config's schema (sent as structured output);
 * "text" replies become `{ [outputKey]: text }` so they merge into the running object.
 */
export function createAiTransform(settings: AiTransformSettings): TransformerPlugin<AiTransformConfig> {
  return {
    type: "transformer",
    name: "ai-transform",
    configSchema: aiTransformConfigSchema,
    async transform(input, config, context) {
      const budget = await settings.budget?.(context.feedId);
      if (budget && !budget.allowed) {
        throw new PluginError(
          "This feed has used its AI calls for this hour; the step runs again when it turns.",
          {
            code: "AI_BUDGET_SPENT",
            retryable: true,
            retryAfterMs: budget.retryAfterMs,
          },
        );
      }
      const json = (config.outputFormat ?? "text") === "json";
      const schema = json && config.schema ? jsonSchemaOf(config.schema) : null;
      const client = new OpenAI({
        apiKey: config.apiKey,
        baseURL: settings.baseUrl,
        fetch: configuredFetch(settings.baseUrl),
        timeout: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxRetries: SDK_RETRIES,
      });
      let content: string | null | undefined;
      try {
        const completion = await client.chat.completions.create(
          {
            model: config.model ?? settings.defaultModel,
            temperature: config.temperature,
            max_tokens: config.maxTokens,
            messages: [
              { role: "system", content: config.prompt },
              { role: "user", content: inputText(input) },
            ],
            ...(json
              ? {
                  response_format: schema
                    ? {
                        type: "json_schema" as const,
                        json_schema: { name: "curate_output", strict: true, schema },
                      }
                    : { type: "json_object" as const },
                }
              : {}),
          },
          { signal: context.signal },
        );
        content = completion.choices[0]?.message?.content;
      } catch (error) {
        throw stepError(error);
      }
      if (typeof content !== "string" || !content.trim()) {
        throw new PluginError("The AI service answered with no content.", { code: "AI_EMPTY_REPLY" });
      }
      if (!json) return { [config.outputKey ?? "text"]: content.trim() };
      let parsed: unknown;
      try {
        parsed = JSON.parse(content);
      } catch {
        throw new PluginError("The AI service's reply is not valid JSON.", { code: "AI_REPLY_INVALID" });
      }
      if (schema) {
        const check = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(parsed);
        if (!check.success) {
          const issues = check.error.issues
            .map((i) => `${i.path.join(".") || "reply"}: ${i.message}`)
            .join("; ");
          throw new PluginError(`The AI service's reply does not match the output schema: ${issues}`, {
            code: "AI_REPLY_INVALID",
          });
        }
      }
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
        throw new PluginError("The AI service's JSON reply is not an object.", { code: "AI_REPLY_INVALID" });
      }
      return config.outputKey ? { [config.outputKey]: parsed } : parsed;
    },
  };
}
