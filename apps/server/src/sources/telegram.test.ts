import { describe, expect, it } from "vitest";
import { applyEntities, postFromUpdate, postsFromUpdates, TELEGRAM_FILE_PREFIX } from "./telegram.ts";
import { oldestFirst, type SocialPost } from "./types.ts";

const group = { id: -1001500000001, type: "supergroup", title: "Rust Readers", username: "rustreaders" };
const privateGroup = { id: -1001500000002, type: "supergroup", title: "Mods only" };
const channel = { id: -1001500000003, type: "channel", title: "Daily Links", username: "dailylinks" };
const ana = { id: 4201, is_bot: false, first_name: "Ana", last_name: "Lima", username: "ana_l" };
const noHandle = { id: 4202, is_bot: false, first_name: "Bo" };

/** The UTF-16 offset Telegram would send for `part` within `text`. */
const at = (text: string, part: string) => ({ offset: text.indexOf(part), length: part.length });

describe("Telegram text as its author wrote it", () => {
  it("writes hidden links out after their label, counting offsets in UTF-16 units past emoji", () => {
    const text = "🔥🔥 New post: the borrow checker explained, and docs";
    const entities = [
      { type: "bold", ...at(text, "New post") },
      { type: "text_link", ...at(text, "the borrow checker explained"), url: "https://blog.example/borrow" },
      { type: "text_link", ...at(text, "docs"), url: "https://doc.rust-lang.org/book/" },
    ];
    expect(applyEntities(text, entities)).toBe(
      "🔥🔥 New post: the borrow checker explained (https://blog.example/borrow), and docs (https://doc.rust-lang.org/book/)",
    );
  });

  it("shows a link whose label is its own address once, and ignores entities that do not fit the text", () => {
    const text = "see example.org/a/ now";
    const entities = [
      { type: "text_link", ...at(text, "example.org/a/"), url: "https://example.org/a" },
      { type: "text_link", offset: 18, length: 40, url: "https://evil.example" },
      { type: "text_link", offset: -1, length: 2, url: "https://evil.example" },
      "not an entity",
    ];
    expect(applyEntities(text, entities)).toBe("see https://example.org/a now");
  });
});

describe("Telegram updates as posts", () => {
  it("reads a group message replying to another: author, display name, public link, chat-scoped ids", () => {
    const parent = {
      message_id: 41,
      date: 1_760_000_000,
      chat: group,
      from: noHandle,
      caption: "Slides from the meetup",
      caption_entities: [
        { type: "text_link", ...at("Slides from the meetup", "meetup"), url: "https://meet.example/9" },
      ],
      photo: [
        { file_id: "small-id", file_unique_id: "s", width: 90, height: 60 },
        { file_id: "large-id", file_unique_id: "l", width: 1280, height: 853 },
        { file_id: "mid-id", file_unique_id: "m", width: 320, height: 213 },
      ],
    };
    const post = postFromUpdate({
      update_id: 9,
      message: {
        message_id: 42,
        date: 1_760_000_100,
        chat: group,
        from: ana,
        text: "!submit #rust",
        reply_to_message: parent,
      },
    }) as SocialPost;
    expect(post).toMatchObject({
      platform: "telegram",
      id: "-1001500000001:42",
      authorId: "4201",
      authorUsername: "ana_l",
      authorDisplayName: "Ana Lima",
      url: "https://t.me/rustreaders/42",
      inReplyToId: "-1001500000001:41",
      createdAt: new Date(1_760_000_100_000),
    });
    expect(post.repliedTo).toMatchObject({
      id: "-1001500000001:41",
      text: "Slides from the meetup (https://meet.example/9)",
      authorUsername: "Bo",
      authorDisplayName: "Bo",
      media: [{ url: `${TELEGRAM_FILE_PREFIX}large-id`, type: "image", alt: null }],
      url: "https://t.me/rustreaders/41",
    });
  });

  it("gives a private group's message no link, and a channel post its channel as author", () => {
    const inPrivate = postFromUpdate({
      update_id: 1,
      message: { message_id: 5, date: 1, chat: privateGroup, from: ana, text: "hello" },
    });
    expect(inPrivate?.url).toBe("");
    const channelPost = postFromUpdate({
      update_id: 2,
      channel_post: {
        message_id: 77,
        date: 1,
        chat: channel,
        sender_chat: channel,
        text: "!submit #links",
      },
    });
    expect(channelPost).toMatchObject({
      authorId: String(channel.id),
      authorUsername: "dailylinks",
      authorDisplayName: "Daily Links",
      url: "https://t.me/dailylinks/77",
    });
  });

  it("does not take a forum topic's opening message for the post a message replies to", () => {
    const post = postFromUpdate({
      update_id: 3,
      message: {
        message_id: 90,
        date: 1,
        chat: { ...group, is_forum: true },
        from: ana,
        is_topic_message: true,
        text: "!submit #rust",
        reply_to_message: {
          message_id: 80,
          date: 1,
          chat: group,
          from: ana,
          forum_topic_created: { name: "Links", icon_color: 7322096 },
        },
      },
    });
    expect(post).toMatchObject({ inReplyToId: null, repliedTo: null });
  });

  it("cuts a text longer than Telegram allows without splitting a character", () => {
    const post = postFromUpdate({
      update_id: 4,
      message: { message_id: 6, date: 1, chat: group, from: ana, text: `${"a".repeat(4095)}😀 and more` },
    });
    expect(post?.text).toBe("a".repeat(4095));
    expect(post?.text.isWellFormed()).toBe(true);
  });

  it("skips malformed updates, steps past every readable id, and orders a chat's messages oldest first", () => {
    const message = (id: number, messageId: number) => ({
      update_id: id,
      message: { message_id: messageId, date: 1, chat: group, from: ana, text: `m${messageId}` },
    });
    const { posts, nextOffset } = postsFromUpdates([
      message(12, 10),
      { update_id: 11, message: { message_id: "nine", chat: group } },
      message(10, 9),
      { message: { message_id: 3, date: 1, chat: group, from: ana, text: "no update id" } },
      { update_id: 13, my_chat_member: { chat: group } },
      null,
    ]);
    expect(posts.map((post) => post.id)).toEqual(["-1001500000001:9", "-1001500000001:10"]);
    expect(nextOffset).toBe(14);
    // Intake re-sorts by id: message 10 must still come after message 9 ("10" < "9" as text).
    expect(oldestFirst([...posts].reverse()).map((post) => post.text)).toEqual(["m9", "m10"]);
  });
});
