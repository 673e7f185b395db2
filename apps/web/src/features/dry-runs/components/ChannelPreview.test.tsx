// @vitest-environment jsdom
import type { DryRunChannel } from "@curate/core";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ChannelPreview } from "./ChannelPreview";

afterEach(cleanup);

const channel = (overrides: Partial<DryRunChannel>): DryRunChannel => ({
  branch: 0,
  pluginName: "@curate/telegram",
  stepName: "Telegram",
  status: "rendered",
  action: "sendMessage",
  request: null,
  shown: null,
  outcome: "new",
  replaces: null,
  error: null,
  failedStep: null,
  ai: false,
  ...overrides,
});

describe("a channel's dry-run preview", () => {
  it("shows a Telegram message as its reader would, a hostile post only ever as text", () => {
    const { container } = render(
      <ChannelPreview
        channel={channel({
          ai: true,
          request: {
            chat_id: "@news",
            parse_mode: "HTML",
            text: "<b>Solar &amp; wind</b>\n\n&lt;script&gt;alert(1)&lt;/script&gt; <img src=x onerror=alert(1)>",
          },
        })}
      />,
    );
    const bubble = screen.getByTestId("telegram-bubble");
    expect(bubble.textContent).toContain("Solar & wind");
    expect(bubble.textContent).toContain("<script>alert(1)</script>");
    expect(container.querySelector("script, img")).toBeNull();
    expect(bubble.querySelector(".font-semibold")?.textContent).toBe("Solar & wind");
    expect(screen.getByText("AI")).toBeTruthy();
  });

  it("shows a Discord embed, a Notion property table and an edit of an earlier publication", () => {
    render(
      <>
        <ChannelPreview
          channel={channel({
            pluginName: "@curate/discord",
            stepName: "Discord",
            action: "editWebhookMessage",
            outcome: "edit",
            request: {
              target: "webhook",
              body: { embeds: [{ title: "Solar \\(cheaper\\)", description: "Body" }] },
            },
            replaces: {
              jobId: "8d759cbb-0000-4000-8000-000000000000",
              reference: { kind: "discord-message" },
            },
          })}
        />
        <ChannelPreview
          channel={channel({
            branch: 1,
            pluginName: "@curate/notion",
            stepName: "Notion",
            action: "pages.create",
            request: { properties: { Name: { title: [{ type: "text", text: { content: "Solar" } }] } } },
          })}
        />
      </>,
    );
    expect(screen.getByTestId("discord-message").textContent).toContain("Solar (cheaper)");
    expect(screen.getByText(/Edits the publication of job 8d759cbb/)).toBeTruthy();
    const row = screen.getByRole("row", { name: /Name/ });
    expect(row.textContent).toContain("Solar");
  });

  it("shows an RSS item as the server says readers will list it, markup in the post as written", () => {
    const text = 'Q&A: <script>alert("x")</script> Vec<T>';
    const { container } = render(
      <ChannelPreview
        channel={channel({
          pluginName: "@curate/rss",
          stepName: "RSS",
          action: "addItem",
          request: { title: text, description: text, content: text, categories: ["c<d>"] },
          shown: {
            id: "urn:curate:f:g",
            guid: "g",
            title: text,
            link: "https://x.com/amy/status/1",
            published: "2026-01-02T03:04:05.000Z",
            author: "amy",
            summary: `${text} & more`,
            content: text,
            image: null,
            categories: ["c<d>"],
          },
        })}
      />,
    );
    expect(screen.getByTestId("rss-item-title").textContent).toBe(text);
    expect(screen.getByTestId("rss-item-summary").textContent).toBe(`${text} & more`);
    expect(screen.getByText("c<d>")).toBeTruthy();
    expect(screen.getByTestId("rss-item").textContent).toContain("amy");
    expect(container.querySelector("script")).toBeNull();
  });

  it("says when a channel that cannot edit will send nothing, and when it posts anew", () => {
    render(
      <>
        <ChannelPreview
          channel={channel({
            pluginName: "@curate/crosspost",
            stepName: "Crosspost",
            action: "createPost",
            outcome: "skip",
            request: { content: [{ text: "Solar" }] },
            replaces: {
              jobId: "8d759cbb-0000-4000-8000-000000000000",
              publicationId: "p1",
              reference: { kind: "crosspost", url: "https://x.com/curate/status/1" },
            },
          })}
        />
        <ChannelPreview channel={channel({ branch: 1, request: { text: "Solar" } })} />
      </>,
    );
    const [skip, fresh] = screen.getAllByTestId("channel-outcome");
    expect(skip.textContent).toBe(
      "Sends nothing: already published by job 8d759cbb…, and this channel cannot edit it. open it",
    );
    expect(skip.querySelector("a")?.getAttribute("href")).toBe("https://x.com/curate/status/1");
    expect(fresh.textContent).toBe("Posts a new publication.");
  });

  it("says which step would fail, and why", () => {
    render(
      <ChannelPreview
        channel={channel({
          status: "failed",
          action: null,
          failedStep: "AI transform",
          error: {
            message: "The AI service's reply is not JSON.",
            code: "AI_REPLY_INVALID",
            retryable: false,
          },
        })}
      />,
    );
    expect(screen.getByText("Would fail")).toBeTruthy();
    expect(screen.getByText("AI transform failed")).toBeTruthy();
    expect(screen.getByTestId("channel-error").textContent).toBe("The AI service's reply is not JSON.");
  });
});
