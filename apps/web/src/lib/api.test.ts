import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, apiUrl, serverMessage } from "./api";

function respondWith(status: number, body: unknown, statusText = "") {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const fetchMock = vi.fn(async () => new Response(text, { status, statusText }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("apiUrl", () => {
  it("prefixes /api and leaves out empty query values", () => {
    expect(apiUrl("/submissions", { page: 0, limit: 20, status: "all", q: "", feedId: undefined })).toBe(
      "/api/submissions?page=0&limit=20&status=all",
    );
    expect(apiUrl("/feeds")).toBe("/api/feeds");
  });
});

describe("api", () => {
  it("returns the envelope's data", async () => {
    const fetchMock = respondWith(200, {
      success: true,
      statusCode: 200,
      timestamp: "t",
      data: [{ id: "ai" }],
    });
    await expect(api("/feeds")).resolves.toEqual([{ id: "ai" }]);
    expect(fetchMock).toHaveBeenCalledWith("/api/feeds", expect.objectContaining({ method: "GET" }));
  });

  it("sends a JSON body for mutations", async () => {
    const fetchMock = respondWith(200, { success: true, statusCode: 200, timestamp: "t", data: null });
    await api("/moderate", { method: "POST", body: { action: "approve" } });
    expect(fetchMock).toHaveBeenCalledWith(
      "/api/moderate",
      expect.objectContaining({
        method: "POST",
        body: '{"action":"approve"}',
        headers: { "content-type": "application/json" },
      }),
    );
  });

  it("turns an error envelope into an ApiError with the status, message and body", async () => {
    const body = {
      success: false,
      statusCode: 404,
      timestamp: "t",
      error: { message: "Feed not found", code: "NOT_FOUND" },
    };
    respondWith(404, body, "Not Found");
    const error = await api("/feeds/nope").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("API request failed: 404 Feed not found");
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).body).toEqual(body);
  });

  it("falls back to the status text when the answer is not an envelope", async () => {
    respondWith(502, "<html>upstream down</html>", "Bad Gateway");
    const error = (await api("/feeds").catch((caught: unknown) => caught)) as ApiError;
    expect(error.message).toBe("API request failed: 502 Bad Gateway");
    expect(error.body).toBe("<html>upstream down</html>");
  });

  it("rejects a 200 that is not a success envelope", async () => {
    respondWith(200, "<!doctype html>", "OK");
    await expect(api("/feeds")).rejects.toThrow("API request failed: 200 OK");
  });
});

describe("serverMessage", () => {
  it("quotes the error envelope's message without the request prefix", () => {
    const body = { success: false, statusCode: 409, error: { message: "Still running.", code: "CONFLICT" } };
    expect(serverMessage(new ApiError(409, "Still running.", body))).toBe("Still running.");
  });

  it("falls back to the error's own message, and to null when there is none", () => {
    expect(serverMessage(new ApiError(502, "Bad Gateway", "<html>"))).toBe(
      "API request failed: 502 Bad Gateway",
    );
    expect(serverMessage(new TypeError("Failed to fetch"))).toBe("Failed to fetch");
    expect(serverMessage(new Error(""))).toBeNull();
    expect(serverMessage("nope")).toBeNull();
  });
});
