import { feedIdSchema, telegramDistributorConfigSchema } from "@curate/core";
import { describe, expect, it } from "vitest";
import { threadIdError, validateBasicInformation } from "./validation";

const draft = (id: string) => ({ name: "A feed name", description: "A description long enough", id });

describe("the wizard's hashtag rules", () => {
  it("refuse what the server refuses, in the server's words", () => {
    for (const id of ["", "x".repeat(65), "has space", "emoji✨", "dot.ted"]) {
      const wizard = validateBasicInformation(draft(id)).id;
      const server = feedIdSchema.safeParse(id);
      expect(server.success, id).toBe(false);
      expect(wizard, id).toBe(server.error?.issues[0]?.message);
    }
  });

  it("accept what the server accepts", () => {
    for (const id of ["ai", "near-news", "web_3", "x".repeat(64)]) {
      expect(validateBasicInformation(draft(id)).id, id).toBeUndefined();
      expect(feedIdSchema.safeParse(id).success, id).toBe(true);
    }
  });
});

describe("the wizard's Telegram thread id rule", () => {
  it("says what the server's config check says", () => {
    const server = telegramDistributorConfigSchema.safeParse({
      botToken: "{{T}}",
      chatId: "@channel",
      messageThreadId: "abc",
    });
    expect(server.success).toBe(false);
    expect(threadIdError("abc")).toBe(server.error?.issues[0]?.message);
    expect(threadIdError("42")).toBeUndefined();
  });
});
