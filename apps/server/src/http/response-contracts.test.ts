import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { successEnvelopeSchema } from "@curate/core";
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { z } from "zod";
import { loadEnv } from "../config/env.ts";
import { AppError, toAppError } from "../errors.ts";
import { errorResponse, idParam, jsonResponse } from "./contracts.ts";
import { errorBody, ok } from "./envelope.ts";
import { createValidatingRouter } from "./router.ts";

const thingSchema = z.object({ id: z.string(), count: z.number().int() });

const thingRoute = createRoute({
  method: "get",
  path: "/things/{id}",
  request: { params: idParam("id", "Thing id") },
  responses: {
    200: jsonResponse(successEnvelopeSchema(thingSchema), "The thing"),
    404: errorResponse("No such thing (NOT_FOUND)"),
  },
});

const plainRoute = createRoute({
  method: "get",
  path: "/plain",
  responses: { 200: { description: "A text file", content: { "text/plain": { schema: z.string() } } } },
});

/** What `/things/{id}` answers, chosen by the id, so each test can break the contract in its own way. */
function thing(c: Context, id: string): Response {
  if (id === "missing") throw AppError.notFound("No such thing.");
  if (id === "taken") throw AppError.conflict("Taken.");
  if (id === "down") throw AppError.unavailable("The database is gone.");
  if (id === "wrong") return ok(c, { id, count: "three" });
  if (id === "status")
    return c.json({ success: true, statusCode: 201, timestamp: "now", data: { id, count: 1 } });
  if (id === "text") return c.text("not the envelope");
  if (id === "extra") return ok(c, { id, count: 1, secretHash: "abc" });
  return ok(c, { id, count: 3 });
}

/**
 * A tiny API built the way the app builds its own: a validating router whose guard lets everything through, and the
 * app's one error handler.
 */
function api(checked: boolean) {
  const router = createValidatingRouter({
    scopeOf: () => "read",
    guard: () => (_c, next) => next(),
    security: () => [],
    checksResponses: checked,
  });
  router.openapi(thingRoute, (c) => thing(c, c.req.valid("param").id) as never);
  router.openapi(plainRoute, (c) => c.text("plain words") as never);
  const app = new OpenAPIHono();
  app.route("/api", router);
  app.onError((err, c) => {
    const error = toAppError(err);
    return c.json(errorBody(error), error.status);
  });
  return app;
}

interface Answer {
  status: number;
  body: { data?: unknown; error: { code: string; message: string } };
}

const get = async (path: string, checked = true): Promise<Answer> => {
  const response = await api(checked).request(`/api${path}`);
  return { status: response.status, body: (await response.json()) as Answer["body"] };
};

describe("the check of answers against their routes' contracts", () => {
  // What a breach writes to stderr, kept out of this run's output; restored after each test, since the files of a
  // worker share one module graph and the next file's breaches must reach the runner.
  let stderr: MockInstance<typeof console.error>;
  beforeEach(() => {
    stderr = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => stderr.mockRestore());

  it("lets an answer that keeps to its contract through untouched", async () => {
    expect(await get("/things/kept")).toMatchObject({
      status: 200,
      body: { data: { id: "kept", count: 3 } },
    });
    expect(await get("/things/missing")).toMatchObject({
      status: 404,
      body: { error: { code: "NOT_FOUND" } },
    });
    expect(stderr).not.toHaveBeenCalled();
  });

  it("answers INTERNAL_ERROR naming the route and the field when the data breaks the declared schema", async () => {
    const { status, body } = await get("/things/wrong");
    expect(status).toBe(500);
    expect(body.error).toMatchObject({
      code: "INTERNAL_ERROR",
      message: expect.stringMatching(
        /^The 200 answer of GET \/things\/\{id\} breaks its contract: data\.count: /,
      ),
      details: [{ path: "data.count", message: expect.any(String) }],
    });
    expect(stderr).toHaveBeenCalledWith(body.error.message);
  });

  it("refuses a field the contract does not declare, which parsing alone would drop", async () => {
    expect((await get("/things/extra")).body.error).toMatchObject({
      code: "INTERNAL_ERROR",
      details: [{ path: "data.secretHash", message: "is sent, but the contract does not declare it" }],
    });
  });

  it("refuses a status the route does not declare, and an envelope that misstates its status", async () => {
    expect((await get("/things/taken")).body.error.message).toMatch(
      /409 answer of GET \/things\/\{id\} breaks its contract: status 409 is not among the route's declared responses/,
    );
    expect((await get("/things/status")).body.error.message).toMatch(
      /statusCode: says 201, but the answer's status is 200/,
    );
  });

  it("refuses a status declared with a JSON body answered in another media type", async () => {
    expect((await get("/things/text")).body.error.message).toMatch(
      /200 answer of GET \/things\/\{id\} breaks its contract: declares a JSON body, but answers in text\/plain/,
    );
  });

  it("allows, undeclared, what any route may answer: 503 and 500, and 400 where the request is validated", async () => {
    expect((await get("/things/down")).status).toBe(503);
    expect((await get(`/things/${"x".repeat(201)}`)).body.error.code).toBe("VALIDATION_ERROR");
    expect(stderr).not.toHaveBeenCalled();
  });

  it("leaves answers in other media types alone", async () => {
    const response = await api(true).request("/api/plain");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("plain words");
  });

  it("checks nothing when the setting is off", async () => {
    expect(await get("/things/wrong", false)).toMatchObject({
      status: 200,
      body: { data: { count: "three" } },
    });
    expect(await get("/things/taken", false)).toMatchObject({ status: 409 });
  });
});

describe("CHECK_RESPONSE_CONTRACTS", () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), "curate-env-"));

  it("is refused outside test servers and off by default", () => {
    for (const NODE_ENV of ["development", "production"]) {
      expect(() =>
        loadEnv({
          NODE_ENV,
          DATA_DIR: dataDir(),
          SESSION_SECRET: "s".repeat(32),
          LOG_SIGNING_KEY: Buffer.alloc(32, 1).toString("base64"),
          CHECK_RESPONSE_CONTRACTS: "true",
        }),
      ).toThrow(/CHECK_RESPONSE_CONTRACTS: only test servers/);
    }
    expect(loadEnv({ DATA_DIR: dataDir() }).CHECK_RESPONSE_CONTRACTS).toBe(false);
    expect(
      loadEnv({ NODE_ENV: "test", DATA_DIR: dataDir(), CHECK_RESPONSE_CONTRACTS: "true" })
        .CHECK_RESPONSE_CONTRACTS,
    ).toBe(true);
  });
});
