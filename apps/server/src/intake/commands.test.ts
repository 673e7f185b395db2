import { handleOnPlatform, submissionKey } from "@curate/core";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startFakeX } from "../../test/fake-x.ts";
import { type FakeBluesky, startFakeBluesky } from "../../test/fakes/bluesky.ts";
import { startFakeMastodon } from "../../test/fakes/mastodon.ts";
import { type FakeTelegramChat, startFakeTelegram } from "../../test/fakes/telegram.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { BlueskyClient } from "../clients/bluesky.ts";
import { MastodonClient } from "../clients/mastodon.ts";
import { createTelegramBotApi } from "../clients/telegram-bot.ts";
import { XApiClient } from "../clients/x-api.ts";
import { moderationHistory, submissionFeeds, submissions } from "../db/schema.ts";
import { BlueskyMentionSource } from "../sources/bluesky.ts";
import { MastodonMentionSource } from "../sources/mastodon.ts";
import { TelegramMentionSource } from "../sources/telegram.ts";
import type { MentionSource } from "../sources/types.ts";
import { XMentionSource } from "../sources/x.ts";
import { runMentionIntake } from "./service.ts";

/**
 * Curators' commands as people write them, read from each network's fake: the bot named before `!submit` or after
 * it, others mentioned first; a command quoted inside a sentence is none. And a decision that names a post by its
 * address, from another network, keeps that address whole.
 */
const X_BOT = "curatebot";
const BLUESKY_BOT = "curatebot.bsky.social";
const MASTODON_DOMAIN = "mastodon.test";
const MASTODON_BOT = `curate@${MASTODON_DOMAIN}`;
const TELEGRAM_TOKEN = "7000000002:AAH-grammar-bot-secret-token-0123";
const TELEGRAM_BOT = "curate_grammar_bot";
const noSleep = async () => {};

let server: TestServer;
let x: Awaited<ReturnType<typeof startFakeX>>;
let bluesky: FakeBluesky;
let mastodon: Awaited<ReturnType<typeof startFakeMastodon>>;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
const sources: Record<"x" | "bluesky" | "mastodon" | "telegram", MentionSource> = {} as never;

beforeAll(async () => {
  [x, bluesky, mastodon, telegram] = await Promise.all([
    startFakeX({ bearerToken: "x-token", botUsername: X_BOT }),
    startFakeBluesky({ handle: BLUESKY_BOT, appPassword: "abcd-efgh-ijkl-mnop" }),
    startFakeMastodon({ accessToken: "mastodon-token", botUsername: "curate", domain: MASTODON_DOMAIN }),
    startFakeTelegram({ token: TELEGRAM_TOKEN, botUsername: TELEGRAM_BOT }),
  ]);
  server = await startTestServer({ BOT_HANDLE: X_BOT });
  sources.x = new XMentionSource(
    new XApiClient({ baseUrl: x.url, bearerToken: "x-token", maxRetries: 0, sleep: noSleep }),
    X_BOT,
  );
  sources.bluesky = new BlueskyMentionSource(
    new BlueskyClient({
      serviceUrl: bluesky.url,
      identifier: BLUESKY_BOT,
      appPassword: "abcd-efgh-ijkl-mnop",
      retries: 0,
      sleep: noSleep,
    }),
    BLUESKY_BOT,
  );
  sources.mastodon = new MastodonMentionSource(
    new MastodonClient({
      baseUrl: mastodon.url,
      accessToken: "mastodon-token",
      localDomain: MASTODON_DOMAIN,
      maxRetries: 0,
      sleep: noSleep,
    }),
  );
  sources.telegram = new TelegramMentionSource({
    api: createTelegramBotApi({
      apiRoot: telegram.apiRoot,
      token: TELEGRAM_TOKEN,
      retries: 0,
      sleep: noSleep,
    }),
  });
  await insertFeed(server.db, { id: "ai" });
  await insertFeed(server.db, {
    id: "fedi",
    approvers: { bluesky: ["carol.bsky.social"], mastodon: ["mod@fosstodon.org"] },
  });
});

afterAll(async () => {
  await server?.close();
  await Promise.all([x?.close(), bluesky?.close(), mastodon?.close(), telegram?.close()]);
});

const run = (network: keyof typeof sources) => runMentionIntake(server.db, sources[network]);

/** The feed links of a post, with their curator's note. */
const linksOf = async (key: string) =>
  (
    await server.db
      .select()
      .from(submissionFeeds)
      .where(eq(submissionFeeds.submissionId, key))
      .orderBy(asc(submissionFeeds.feedId))
  ).map((link) => [link.feedId, link.status, link.curatorNotes]);

describe("commands in either order, on every network", () => {
  it("X: `@bot !submit`, after other mentions too, as well as `!submit @bot`; not a quoted one", async () => {
    const posts = ["first", "second", "third", "quoted"].map((word) =>
      x.post("author_x", `An X post, ${word}`),
    );
    x.post("cat", `@${X_BOT} !submit #ai bot first`, posts[0]);
    x.post("cat", `@author_x @${X_BOT} !submit #ai others first`, posts[1]);
    x.post("cat", `!submit @${X_BOT} #ai command first`, posts[2]);
    x.post("cat", `@author_x Tip: reply "!submit @${X_BOT} #ai" to curate this`, posts[3]);
    await run("x");
    expect(await linksOf(posts[0])).toEqual([["ai", "pending", "bot first"]]);
    expect(await linksOf(posts[1])).toEqual([["ai", "pending", "others first"]]);
    expect(await linksOf(posts[2])).toEqual([["ai", "pending", "command first"]]);
    expect(await linksOf(posts[3])).toEqual([]);
  });

  it("Bluesky: the same", async () => {
    const posts = ["first", "second", "third", "quoted"].map((word) =>
      bluesky.addPost({ handle: "author.bsky.social", text: `A Bluesky post, ${word}` }),
    );
    const reply = (text: string, replyTo: string) =>
      bluesky.addPost({ handle: "cat.bsky.social", text, replyTo });
    reply(`@${BLUESKY_BOT} !submit #ai bot first`, posts[0]);
    reply(`@author.bsky.social @${BLUESKY_BOT} !submit #ai others first`, posts[1]);
    reply(`!submit @${BLUESKY_BOT} #ai command first`, posts[2]);
    reply(`Tip: reply "!submit @${BLUESKY_BOT} #ai" to curate this`, posts[3]);
    await run("bluesky");
    const key = (uri: string) => submissionKey("bluesky", uri);
    expect(await linksOf(key(posts[0]))).toEqual([["ai", "pending", "bot first"]]);
    expect(await linksOf(key(posts[1]))).toEqual([["ai", "pending", "others first"]]);
    expect(await linksOf(key(posts[2]))).toEqual([["ai", "pending", "command first"]]);
    expect(await linksOf(key(posts[3]))).toEqual([]);
  });

  it("Mastodon: the same, and a command under the content warning its reply took over", async () => {
    const posts = ["first", "second", "third", "quoted", "warned"].map((word) =>
      mastodon.post({ by: "author@fosstodon.org", text: `A Mastodon post, ${word}` }),
    );
    const reply = (text: string, inReplyTo: string, spoiler?: string) =>
      mastodon.post({ by: "cat", text, inReplyTo, spoiler });
    reply("@curate !submit #ai bot first", posts[0].id);
    reply("@author@fosstodon.org @curate !submit #ai others first", posts[1].id);
    reply("!submit @curate #ai command first", posts[2].id);
    reply('Tip: reply "!submit @curate #ai" to curate this', posts[3].id);
    reply("@author@fosstodon.org @curate !submit #ai behind a warning", posts[4].id, "politics");
    await run("mastodon");
    const key = (status: Record<string, string>) => submissionKey("mastodon", status.uri);
    expect(await linksOf(key(posts[0]))).toEqual([["ai", "pending", "bot first"]]);
    expect(await linksOf(key(posts[1]))).toEqual([["ai", "pending", "others first"]]);
    expect(await linksOf(key(posts[2]))).toEqual([["ai", "pending", "command first"]]);
    expect(await linksOf(key(posts[3]))).toEqual([]);
    expect(await linksOf(key(posts[4]))).toEqual([["ai", "pending", "behind a warning"]]);
    expect(sources.mastodon.botHandle).toBe(MASTODON_BOT);
  });

  it("Telegram: the bot named first, after the command, or not at all; not a quoted one", async () => {
    const chat: FakeTelegramChat = telegram.chat({
      type: "supergroup",
      title: "Readers",
      username: "readers",
    });
    const author = telegram.user("poster");
    const curator = telegram.user("cat_curates");
    const posts = ["first", "second", "quoted", "third"].map(
      (word) => telegram.send(chat, author, { text: `A Telegram message, ${word}` }).message,
    );
    telegram.send(chat, curator, { text: `@${TELEGRAM_BOT} !submit #ai bot first`, replyTo: posts[0] });
    telegram.send(chat, curator, { text: "!submit #ai no bot named", replyTo: posts[1] });
    telegram.send(chat, curator, { text: "To share one, reply with !submit #ai to it", replyTo: posts[2] });
    telegram.send(chat, curator, { text: `!submit @${TELEGRAM_BOT} #ai command first`, replyTo: posts[3] });
    await run("telegram");
    const key = (message: Record<string, unknown>) =>
      submissionKey("telegram", `${chat.id}:${message.message_id}`);
    expect(await linksOf(key(posts[0]))).toEqual([["ai", "pending", "bot first"]]);
    expect(await linksOf(key(posts[1]))).toEqual([["ai", "pending", "no bot named"]]);
    expect(await linksOf(key(posts[2]))).toEqual([]);
    expect(await linksOf(key(posts[3]))).toEqual([["ai", "pending", "command first"]]);
  });
});

describe("deciding from another network by a post's address", () => {
  const decisions = (key: string) =>
    server.db
      .select()
      .from(moderationHistory)
      .where(and(eq(moderationHistory.submissionId, key), eq(moderationHistory.feedId, "fedi")));

  it("approves a Mastodon post from Bluesky by its address, which the note and the post keep whole", async () => {
    const essay = mastodon.post({ by: "alice@social.example", text: "An essay on federated moderation" });
    mastodon.post({
      by: "dan",
      text: "!submit @curate #fedi see also https://social.example/@bob/42",
      inReplyTo: essay.id,
    });
    await run("mastodon");
    const key = submissionKey("mastodon", essay.uri);
    expect(await linksOf(key)).toEqual([["fedi", "pending", "see also https://social.example/@bob/42"]]);
    const [stored] = await server.db.select().from(submissions).where(eq(submissions.tweetId, key));
    expect(stored.url).toBe(essay.url);
    expect(essay.url).toMatch(/^https:\/\/social\.example\/@alice\/\d+$/);

    // As the Bluesky app posts a link: shortened in the text, whole in its link facet.
    const shown = `${essay.url.replace("https://", "").slice(0, 24)}...`;
    const text = `@${BLUESKY_BOT} !approve ${shown} lovely`;
    const byteStart = text.indexOf(shown);
    bluesky.addPost({
      handle: "carol.bsky.social",
      text,
      facets: [
        {
          index: { byteStart, byteEnd: byteStart + shown.length },
          features: [{ $type: "app.bsky.richtext.facet#link", uri: essay.url }],
        },
      ],
    });
    await run("bluesky");
    expect(await linksOf(key)).toEqual([["fedi", "approved", "see also https://social.example/@bob/42"]]);
    expect((await decisions(key)).map((d) => [d.action, d.source, d.moderatorAccountId, d.note])).toEqual([
      ["approve", "platform_comment", handleOnPlatform("bluesky", "carol.bsky.social"), "lovely"],
    ]);
  });

  it("finds an X post named by the address a share link gives it, and a Mastodon post by its status URI", async () => {
    const tweet = x.post("amy", "A thread on curation");
    x.post("cat", `!submit @${X_BOT} #fedi`, tweet);
    const toot = mastodon.post({ by: "erin@social.example", text: "A toot worth keeping" });
    mastodon.post({ by: "dan", text: "!submit @curate #fedi", inReplyTo: toot.id });
    await run("x");
    await run("mastodon");

    mastodon.post({
      by: "mod@fosstodon.org",
      text: `@curate !approve https://twitter.com/AMY/status/${tweet}?s=20, ${toot.uri}. Both solid`,
    });
    await run("mastodon");
    const tootKey = submissionKey("mastodon", toot.uri);
    expect(await linksOf(tweet)).toEqual([["fedi", "approved", null]]);
    expect(await linksOf(tootKey)).toEqual([["fedi", "approved", null]]);
    for (const key of [tweet, tootKey])
      expect((await decisions(key)).map((d) => d.note)).toEqual(["Both solid"]);
  });
});
