import {
  ALL_FEED_ID,
  authorUrl,
  canonicalPluginName,
  curatorFields,
  type FeedConfig,
  handleOnPlatform,
  networkName,
  type Platform,
  submissionKey,
} from "@curate/core";
import type {
  activities,
  feeds,
  moderationHistory,
  processingJobs,
  submissionFeeds,
  submissions,
  users,
} from "../db/schema.ts";
import {
  APPROVE_NOTES,
  AUTHORS,
  CURATORS,
  type DemoFeedSpec,
  FEED_SPECS,
  GENERIC_NOTES,
  GENERIC_TAKES,
  NEAR_ACCOUNTS,
  NETWORK_APPROVERS,
  NETWORK_PEOPLE,
  type NetworkPerson,
  REJECT_NOTES,
  type Topic,
} from "./catalog.ts";
import { feedImageSvg } from "./images.ts";
import { hashString, Random } from "./random.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** X snowflake epoch: ids carry their creation time, like real post ids. */
const SNOWFLAKE_EPOCH = 1288834974657n;

const SEED = 0x5eed_c0de;
/** Posts submitted to one or more feeds, plus a few that named no feed. */
const POST_COUNT = 296;
const UNROUTED_COUNT = 4;
const SPREAD_DAYS = 60;
const LAST_HOUR_AGES_MIN = [3, 9, 17, 26, 38, 52];

type Status = "pending" | "approved" | "rejected";

export interface PlannedImage {
  feedId: string;
  svg: string;
}

export interface DemoPlan {
  images: PlannedImage[];
  users: (typeof users.$inferInsert)[];
  feeds: (Omit<typeof feeds.$inferInsert, "image" | "config"> & { config: Omit<FeedConfig, "image"> })[];
  submissions: (typeof submissions.$inferInsert)[];
  links: (typeof submissionFeeds.$inferInsert)[];
  moderation: (typeof moderationHistory.$inferInsert)[];
  activities: (typeof activities.$inferInsert)[];
  /** Processing requests for every approval, for the worker to run on first start. */
  jobs: (typeof processingJobs.$inferInsert)[];
  curators: number;
}

export interface PlanOptions {
  now: Date;
  publicUrl: string;
  botHandle: string;
}

/** Numeric X account ids: old accounts have short ids, newer ones 19-digit snowflakes. */
function xUserId(handle: string): string {
  const rng = new Random(hashString(handle));
  if (rng.chance(0.4)) return String(rng.int(10_000_000, 2_999_999_999));
  const ms = BigInt(Date.UTC(2012, 0, 1) + rng.int(0, 12 * 365) * DAY);
  return (((ms - SNOWFLAKE_EPOCH) << 22n) | BigInt(rng.int(0, 4_194_303))).toString();
}

/** A UUID drawn from the seeded generator, so the demo's job ids are the same on every build. */
function seededUuid(rng: Random): string {
  const hex = Array.from({ length: 32 }, () => rng.int(0, 15).toString(16)).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** How many of a feed's recent approvals ran while it still had steps that need keys. */
const EARLIER_PLAN_JOBS = { aiSummary: 3, telegram: 2 } as const;
const EARLIER_PLAN_FEEDS = new Set(["cryptonews", "airesearch", "near", "climate"]);

function snowflake(at: number, rng: Random): string {
  return (((BigInt(at) - SNOWFLAKE_EPOCH) << 22n) | BigInt(rng.int(0, 4_194_303))).toString();
}

const OPENERS = ["Big news:", "Just in:", "ICYMI:", "Worth noting:", "Today:", "Finally:"];
const LONG_CONTEXT = [
  "A few things stand out after reading the full announcement: the timeline is realistic, the trade-offs are spelled out, and the people most affected were consulted early instead of being told after the fact.",
  "What I appreciate is the level of detail. There's a clear explanation of what changed, what didn't, and what is still unknown, which is more than most announcements bother with.",
  "The first reactions focus on the headline number, but the more interesting part is buried in the second half, where they explain how they measured it and what would prove them wrong.",
];

/** Builds a post from the topic's hand-written pieces; duplicates are avoided by the caller. */
function composePost(rng: Random, topic: Topic): string {
  const tags = rng.sample(topic.hashtags, rng.int(1, 2)).join(" ");
  const take = rng.chance(0.6) ? rng.pick(topic.takes) : rng.pick(GENERIC_TAKES);
  const headline = rng.pick(topic.headlines);
  const link = rng.pick(topic.links);
  const mention = `h/t @${rng.pick(AUTHORS)}`;
  switch (rng.int(0, 6)) {
    case 0:
      return `${headline}. ${take}`;
    case 1:
      return `${headline}. ${take} ${link}`;
    case 2:
      return `${headline} ${link} ${tags}`;
    case 3:
      return `${rng.pick(OPENERS)} ${headline}. ${take} ${tags}`;
    case 4:
      return `${headline}.\n\n${take} ${rng.pick(GENERIC_TAKES)}\n\n${link} ${mention}`;
    case 5:
      return `Thread 🧵 ${headline}. Here's what it means and why it matters 👇 ${tags}`;
    default:
      return `${headline}. ${rng.pick(LONG_CONTEXT)} ${take} ${link} ${tags}`;
  }
}

function pickStatus(rng: Random, ageMs: number): Status {
  const table: readonly (readonly [Status, number])[] =
    ageMs < HOUR
      ? [
          ["pending", 88],
          ["approved", 8],
          ["rejected", 4],
        ]
      : ageMs < DAY
        ? [
            ["pending", 55],
            ["approved", 35],
            ["rejected", 10],
          ]
        : ageMs < 3 * DAY
          ? [
              ["pending", 25],
              ["approved", 55],
              ["rejected", 20],
            ]
          : [
              ["pending", 12],
              ["approved", 63],
              ["rejected", 25],
            ];
  return rng.weighted(table);
}

function moderationDelay(rng: Random): number {
  return rng.weighted([
    [rng.int(5, 60) * MINUTE, 50],
    [rng.int(60, 8 * 60) * MINUTE, 35],
    [rng.int(8 * 60, 40 * 60) * MINUTE, 15],
  ]);
}

/** A link's status and when it was decided; a decision due within the last minute has not happened yet. */
function linkOutcome(
  rng: Random,
  now: number,
  linkAt: number,
  decidable: boolean,
): { status: Status; decidedAt: number | null } {
  const status: Status = decidable ? pickStatus(rng, now - linkAt) : "pending";
  if (status === "pending") return { status, decidedAt: null };
  const decidedAt = linkAt + moderationDelay(rng);
  return decidedAt > now - MINUTE ? { status: "pending", decidedAt: null } : { status, decidedAt };
}

const SOURCE_MAPPING = {
  plugin: "@curatedotfun/object-transform",
  config: {
    mappings: {
      source: "{{url}}",
      content: "{{content}}",
      author: "{{username}}",
      notes: "{{curatorNotes}}",
      submittedAt: "{{submittedAt}}",
    },
  },
};

function rssDistributor(
  spec: DemoFeedSpec,
  publicUrl: string,
  titleTemplate: string,
  descriptionTemplate: string,
) {
  return {
    plugin: "@curatedotfun/rss",
    config: {
      feedConfig: {
        title: spec.name,
        description: spec.description,
        siteUrl: `${publicUrl}/feed/${spec.id}`,
      },
      serviceUrl: `${publicUrl}/rss`,
    },
    transform: [
      {
        plugin: "@curatedotfun/object-transform",
        config: {
          mappings: {
            title: titleTemplate,
            description: descriptionTemplate,
            content: "{{content}}",
            link: "{{source}}",
            publishedAt: "{{submittedAt}}",
            author: { name: "{{author}}", link: "{{authorUrl}}" },
            categories: [spec.id],
          },
        },
      },
    ],
  };
}

/**
 * A demo feed's RSS item title: its author and the network (or blog site) the post is on. Seeds before migration
 * 0026 wrote "{{author}} on X: …" for every network; that migration rewrites those not edited since (decision 0032).
 */
export const DEMO_ITEM_TITLE = "{{author}} on {{network}}: {{content | truncate:80}}";

/**
 * The pipeline a demo feed runs: map the post, then publish it to the built-in RSS service. It needs no key, so a
 * fresh start publishes every approval; what a key would add (AI summaries, Telegram) shows in the seeded history.
 */
function streamOutput(spec: DemoFeedSpec, publicUrl: string) {
  return {
    enabled: spec.streamEnabled,
    transform: [SOURCE_MAPPING],
    distribute: [rssDistributor(spec, publicUrl, DEMO_ITEM_TITLE, "{{content}}")],
  };
}

/** The same feed as it ran before its owner took out the steps that need keys: an AI summary and Telegram. */
function earlierPlan(spec: DemoFeedSpec, publicUrl: string, input: unknown) {
  const step = (entry: { plugin: string; config: Record<string, unknown> }) => ({
    plugin: canonicalPluginName(entry.plugin),
    config: entry.config,
  });
  const transforms = [step(SOURCE_MAPPING)];
  if (spec.aiSummary) {
    transforms.push(
      step({
        plugin: "@curatedotfun/ai-transform",
        config: {
          prompt: `Summarise this post for readers of ${spec.name}. Keep it factual, neutral and under 60 words.`,
          apiKey: "{{OPENROUTER_API_KEY}}",
          outputFormat: "json",
          schema: {
            title: { type: "string", description: "A headline of at most 80 characters" },
            summary: { type: "string", description: "Two or three plain sentences" },
          },
        },
      }),
    );
  }
  const rss = rssDistributor(
    spec,
    publicUrl,
    spec.aiSummary ? "{{title}}" : "{{author}} on {{network}}",
    spec.aiSummary ? "{{summary}}" : "{{content}}",
  );
  const branches = [{ index: 0, transforms: rss.transform.map(step), distributor: step(rss) }];
  if (spec.telegramChannel) {
    branches.push({
      index: 1,
      transforms: [
        step({
          plugin: "@curatedotfun/simple-transform",
          config: { template: "🔹 {{content}}\n\n🔗 {{source}}" },
        }),
      ],
      distributor: step({
        plugin: "@curatedotfun/telegram",
        config: { botToken: "{{TELEGRAM_BOT_TOKEN}}", chatId: spec.telegramChannel },
      }),
    });
  }
  return { transforms, branches, entries: [{ chain: "global", from: 0, input }] };
}

function feedConfig(spec: DemoFeedSpec, publicUrl: string, botHandle: string): Omit<FeedConfig, "image"> {
  const config: Omit<FeedConfig, "image"> = {
    id: spec.id,
    name: spec.name,
    description: spec.description,
    enabled: true,
    admins: spec.admins,
    pollingIntervalMs: spec.pollingIntervalMs,
    moderation: {
      approvers: { twitter: spec.approvers, ...NETWORK_APPROVERS[spec.id] },
      blacklist: { twitter: spec.blacklist },
    },
    outputs: { stream: streamOutput(spec, publicUrl) },
  };
  if (spec.sourcePlugin) {
    config.sources = [
      {
        plugin: spec.sourcePlugin,
        search: [
          {
            searchId: `${spec.id}-mentions`,
            type: "twitter-mention",
            query: `@${botHandle} #${spec.id}`,
            pageSize: 100,
            language: "en",
          },
        ],
      },
    ];
  }
  return config;
}

interface LinkDraft {
  feedId: string;
  /** The curator's key (`handleOnPlatform`); null for a post a feed source found. */
  curator: string | null;
  curatorId: string | null;
  notes: string | null;
  curatorTweetId: string | null;
  submittedAt: number;
  status: Status;
  decidedAt: number | null;
}

interface Decision {
  moderator: string;
  idType: "near" | "platform_username";
  source: "ui" | "platform_comment" | "auto_approval";
  action: "approve" | "reject";
  note: string | null;
  at: number;
}

/** Posts from Bluesky, Mastodon, Telegram and blogs: about a quarter of the demo's posts. */
const NETWORK_POST_COUNT = 110;
/** Their own generator, so every X row above is drawn exactly as before these networks existed. */
const NETWORK_SEED = 0x0b5e_7a11;
type Network = Exclude<Platform, "twitter">;
const NETWORK_SHARE: readonly (readonly [Network, number])[] = [
  ["bluesky", 40],
  ["mastodon", 25],
  ["telegram", 20],
  ["rss", 15],
];
const SORTABLE_BASE32 = "234567abcdefghijklmnopqrstuvwxyz";

/** A `did:plc` that stays the same for a handle on every build. */
function plcDid(handle: string): string {
  const rng = new Random(hashString(`did:${handle}`));
  return `did:plc:${Array.from({ length: 24 }, () => SORTABLE_BASE32[rng.int(0, 31)]).join("")}`;
}

/** A record key as Bluesky makes them: microseconds since the epoch and a clock id, base32-sortable. */
function recordKey(at: number, rng: Random): string {
  const value = ((BigInt(at) * 1000n) << 10n) | BigInt(rng.int(0, 1023));
  return [...value.toString(32).padStart(13, "0")]
    .map((digit) => SORTABLE_BASE32[parseInt(digit, 32)])
    .join("");
}

/** A post as its network names it: the key rows store, where readers open it, and who wrote it. */
interface NetworkPost {
  key: string;
  url: string;
  userId: string;
  username: string;
  displayName: string;
  /** The key of the curator's `!submit` reply, made `at` (null for what a feed source found). */
  replyKey: (curator: NetworkPerson, at: number) => string | null;
}

/** Telegram group ids and the next message id in each: ids grow with time within a chat. */
function telegramChats(rng: Random) {
  return new Map(
    NETWORK_PEOPLE.telegram.chats.map((chat) => [
      chat,
      { id: -(1_001_000_000_000 + (hashString(chat) % 900_000_000)), next: rng.int(2_000, 9_000) },
    ]),
  );
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);
}

/** A Telegram user id that stays the same for a username on every build. */
const telegramUserId = (username: string) => String(100_000_000 + (hashString(username) % 900_000_000));

/** The id a network gives a curator (intake stores it beside their handle). */
function curatorIdOn(network: Network, curator: NetworkPerson): string {
  if (network === "bluesky") return plcDid(curator.handle);
  return network === "telegram" ? telegramUserId(curator.handle) : curator.handle;
}

function networkPost(
  network: Network,
  rng: Random,
  post: { at: number; headline: string; feedId: string },
  chats: ReturnType<typeof telegramChats>,
): NetworkPost {
  const postedAt = post.at;
  if (network === "bluesky") {
    const author = rng.pick(NETWORK_PEOPLE.bluesky.authors);
    const rkey = recordKey(postedAt, rng);
    return {
      key: submissionKey("bluesky", `at://${plcDid(author.handle)}/app.bsky.feed.post/${rkey}`),
      url: `https://bsky.app/profile/${author.handle}/post/${rkey}`,
      userId: plcDid(author.handle),
      username: author.handle,
      displayName: author.name,
      replyKey: (curator, at) =>
        submissionKey("bluesky", `at://${plcDid(curator.handle)}/app.bsky.feed.post/${recordKey(at, rng)}`),
    };
  }
  if (network === "mastodon") {
    const author = rng.pick(NETWORK_PEOPLE.mastodon.authors);
    // Mastodon's ids carry the time in their upper bits, like X's.
    const statusId = (at: number) => ((BigInt(at) << 16n) | BigInt(rng.int(0, 65_535))).toString();
    const statusUri = (acct: string, id: string) => {
      const [user, instance] = acct.split("@");
      return `https://${instance}/users/${user}/statuses/${id}`;
    };
    const id = statusId(postedAt);
    const [user, instance] = author.handle.split("@");
    return {
      key: submissionKey("mastodon", statusUri(author.handle, id)),
      url: `https://${instance}/@${user}/${id}`,
      userId: author.handle,
      username: author.handle,
      displayName: author.name,
      replyKey: (curator, at) => submissionKey("mastodon", statusUri(curator.handle, statusId(at))),
    };
  }
  if (network === "telegram") {
    const author = rng.pick(NETWORK_PEOPLE.telegram.authors);
    const name = rng.pick(NETWORK_PEOPLE.telegram.chats);
    const chat = chats.get(name)!;
    const messageId = chat.next;
    chat.next += rng.int(3, 40);
    return {
      key: submissionKey("telegram", `${chat.id}:${messageId}`),
      url: `https://t.me/${name}/${messageId}`,
      userId: telegramUserId(author.handle),
      username: author.handle,
      displayName: author.name,
      replyKey: () => {
        const reply = chat.next;
        chat.next += rng.int(1, 5);
        return submissionKey("telegram", `${chat.id}:${reply}`);
      },
    };
  }
  const blogs = NETWORK_PEOPLE.blogs.filter((candidate) => candidate.feeds.includes(post.feedId));
  const blog = rng.pick(blogs.length ? blogs : NETWORK_PEOPLE.blogs);
  const day = new Date(postedAt).toISOString().slice(0, 10).replaceAll("-", "/");
  const url = `https://${blog.host}/${day}/${slug(post.headline)}`;
  return {
    // The article's address is its guid: an absolute URI, so the key is the same whichever feed lists it.
    key: submissionKey("rss", url),
    url,
    userId: `https://${blog.host}/`,
    username: blog.author,
    displayName: blog.author,
    replyKey: () => null,
  };
}

/**
 * Who decided a link and how: an approver's own submission is approved on intake; others by reply or in the app.
 * `approvers` are the keys of the feed's approvers on the post's network.
 */
function decide(rng: Random, spec: DemoFeedSpec, link: LinkDraft, approvers: string[]): Decision | null {
  if (link.status === "pending" || link.decidedAt === null) return null;
  const action = link.status === "approved" ? "approve" : "reject";
  if (action === "approve" && link.curator && approvers.includes(link.curator) && rng.chance(0.7)) {
    return {
      moderator: link.curator,
      idType: "platform_username",
      source: "auto_approval",
      action,
      note: null,
      at: link.submittedAt + 2000,
    };
  }
  const notes = action === "approve" ? APPROVE_NOTES : REJECT_NOTES;
  const note = rng.chance(action === "approve" ? 0.25 : 0.65) ? rng.pick(notes) : null;
  const platformModerators = approvers.filter((h) => h !== link.curator);
  if (platformModerators.length > 0 && rng.chance(0.45)) {
    const moderator = rng.pick(platformModerators);
    return {
      moderator,
      idType: "platform_username",
      source: "platform_comment",
      action,
      note,
      at: link.decidedAt,
    };
  }
  const moderator = rng.pick([spec.createdBy, ...spec.admins]);
  return { moderator, idType: "near", source: "ui", action, note, at: link.decidedAt };
}

/**
 * Everything the demo inserts, computed in memory from a fixed seed and `now`: the same inputs give the
 * same rows, so screenshots, tests and bug reports stay comparable.
 */
export function buildDemoPlan({ now: nowDate, publicUrl, botHandle }: PlanOptions): DemoPlan {
  const now = Math.floor(nowDate.getTime() / 1000) * 1000;
  const rng = new Random(SEED);
  const base = publicUrl.replace(/\/+$/, "");

  const images = FEED_SPECS.map((spec) => ({ feedId: spec.id, svg: feedImageSvg(spec.art) }));

  const creatorSince = new Map<string, number>();
  for (const spec of FEED_SPECS) {
    const at = now - spec.createdDaysAgo * DAY;
    creatorSince.set(spec.createdBy, Math.min(creatorSince.get(spec.createdBy) ?? at, at));
  }
  const planUsers = NEAR_ACCOUNTS.map((account, i) => ({
    nearAccountId: account,
    username: account.replace(/\.near$/, ""),
    createdAt: new Date((creatorSince.get(account) ?? now - (30 + i * 4) * DAY) - rng.int(1, 9) * DAY),
    updatedAt: new Date(now - rng.int(0, 20) * DAY),
  }));

  const planFeeds: DemoPlan["feeds"] = FEED_SPECS.map((spec) => {
    const createdAt = now - spec.createdDaysAgo * DAY - rng.int(0, 20 * 60) * MINUTE;
    return {
      id: spec.id,
      name: spec.name,
      description: spec.description,
      config: feedConfig(spec, base, botHandle),
      createdBy: spec.createdBy,
      admins: spec.admins,
      createdAt: new Date(createdAt),
      updatedAt: new Date(Math.min(now - HOUR, createdAt + rng.int(0, spec.createdDaysAgo) * DAY)),
    };
  });
  planFeeds.push({
    id: ALL_FEED_ID,
    name: "All",
    description: "Submissions that name no feed.",
    config: { id: ALL_FEED_ID, name: "All", description: "Submissions that name no feed.", enabled: true },
    createdBy: null,
    admins: [],
    createdAt: new Date(now - 90 * DAY),
    updatedAt: new Date(now - 90 * DAY),
  });

  // Curators favour a few feeds each and differ in activity, so leaderboards have a clear top and a long tail.
  const specById = new Map(FEED_SPECS.map((s) => [s.id, s]));
  const activeFeeds = FEED_SPECS.filter((s) => s.weight > 0);
  const curatorOrder = rng.sample(CURATORS, CURATORS.length);
  const activity = new Map(curatorOrder.map((c, rank) => [c, 1 / (rank + 2) ** 0.7]));
  const favourites = new Map<string, Set<string>>();
  for (const curator of curatorOrder) {
    const set = new Set<string>();
    const count = rng.int(1, 3);
    while (set.size < count) set.add(rng.weighted(activeFeeds.map((s) => [s.id, s.weight] as const)));
    favourites.set(curator, set);
  }
  for (const spec of activeFeeds) {
    for (const approver of spec.approvers) favourites.get(approver)?.add(spec.id);
  }
  const poolOf = (feedId: string) => curatorOrder.filter((c) => favourites.get(c)?.has(feedId));
  for (const spec of activeFeeds) {
    while (poolOf(spec.id).length < 4) favourites.get(rng.pick(curatorOrder))?.add(spec.id);
  }
  const pickCurator = (feedId: string, except?: string) => {
    const pool = poolOf(feedId).filter((c) => c !== except);
    return rng.weighted(pool.map((c) => [c, activity.get(c) ?? 0.1] as const));
  };
  const authorWeights = AUTHORS.map((a, i) => [a, 1 / (1 + (i % 17)) ** 0.5] as const);

  // Ages: a handful in the last hour, the rest skewed towards recent days across the spread.
  const ages: number[] = LAST_HOUR_AGES_MIN.map((m) => m * MINUTE + rng.int(0, 50) * 1000);
  while (ages.length < POST_COUNT + UNROUTED_COUNT) {
    ages.push(HOUR + Math.floor(rng.next() ** 1.7 * SPREAD_DAYS * DAY));
  }
  ages.sort((a, b) => b - a);
  const unroutedAt = new Set(rng.sample([...ages.keys()].slice(ages.length / 2), UNROUTED_COUNT));

  const usedContent = new Set<string>();
  const handwrittenLeft = new Map(
    FEED_SPECS.map((s) => [s.id, rng.sample(s.topic.posts, s.topic.posts.length)]),
  );
  const contentFor = (feedId: string): string => {
    const spec = specById.get(feedId)!;
    const left = handwrittenLeft.get(feedId)!;
    if (left.length > 0 && rng.chance(0.4)) return left.pop()!;
    for (let attempt = 0; attempt < 40; attempt++) {
      const text = composePost(rng, spec.topic);
      if (!usedContent.has(text)) return text;
    }
    return `${composePost(rng, spec.topic)} ${rng.pick(GENERIC_TAKES)}`;
  };
  const noteFor = () => (rng.chance(0.3) ? null : rng.pick(GENERIC_NOTES));

  const planSubmissions: DemoPlan["submissions"] = [];
  const planLinks: DemoPlan["links"] = [];
  const planModeration: DemoPlan["moderation"] = [];
  const planActivities: DemoPlan["activities"] = [];
  const planJobs: DemoPlan["jobs"] = [];
  // Job ids come from their own generator so adding them left every other demo row as it was.
  const jobIds = new Random(SEED ^ 0x10b5);
  const earlierPlanLeft = new Map(
    FEED_SPECS.filter((spec) => EARLIER_PLAN_FEEDS.has(spec.id)).map((spec) => [
      spec.id,
      spec.aiSummary ? EARLIER_PLAN_JOBS.aiSummary : spec.telegramChannel ? EARLIER_PLAN_JOBS.telegram : 0,
    ]),
  );
  const curatorsUsed = new Set<string>();

  /** A post's link to one feed: its row, its activities, and its decision's history row and processing request. */
  const recordLink = (
    submission: typeof submissions.$inferInsert,
    link: LinkDraft,
    spec: DemoFeedSpec | undefined,
    decision: Decision | null,
  ) => {
    const tweetId = submission.tweetId;
    const platform = submission.platform ?? "twitter";
    const touched = decision?.at ?? link.submittedAt;
    if (link.curator) curatorsUsed.add(link.curator);
    planLinks.push({
      submissionId: tweetId,
      feedId: link.feedId,
      status: link.status,
      curatorId: link.curatorId,
      curatorUsername: link.curator,
      curatorNotes: link.notes,
      curatorTweetId: link.curatorTweetId,
      submittedAt: new Date(link.submittedAt),
      createdAt: new Date(link.submittedAt),
      updatedAt: new Date(touched),
    });
    if (touched > (submission.updatedAt as Date).getTime()) submission.updatedAt = new Date(touched);
    planActivities.push({
      userId: link.curator ?? link.curatorId ?? "unknown",
      type: "CONTENT_SUBMISSION",
      timestamp: new Date(link.submittedAt),
      feedId: link.feedId,
      submissionId: tweetId,
      data: { curatorTweetId: link.curatorTweetId, curatorNotes: link.notes },
      metadata: { platform },
      createdAt: new Date(link.submittedAt),
      updatedAt: new Date(link.submittedAt),
    });

    if (!decision) return;
    const at = new Date(decision.at);
    planModeration.push({
      submissionId: tweetId,
      feedId: link.feedId,
      moderatorAccountId: decision.moderator,
      moderatorAccountIdType: decision.idType,
      source: decision.source,
      action: decision.action,
      note: decision.note,
      createdAt: at,
      updatedAt: at,
    });
    if (decision.action === "approve" && spec) {
      const key = `approval:${tweetId}:${link.feedId}:demo`;
      // The newest approvals of a few feeds ran while the feed still had an AI step or a Telegram branch,
      // whose keys a fresh install does not have: their jobs carry that earlier plan and fail for it.
      const earlier = (earlierPlanLeft.get(link.feedId) ?? 0) > 0 && now - decision.at < DAY;
      if (earlier) earlierPlanLeft.set(link.feedId, (earlierPlanLeft.get(link.feedId) ?? 0) - 1);
      const input = {
        tweetId,
        // The first input as processing/input.ts builds it, so templates find the post's network there too.
        platform,
        network: networkName(platform, submission.url),
        ...(platform === "twitter" ? {} : { authorDisplayName: submission.authorDisplayName }),
        userId: submission.userId,
        username: submission.username,
        authorUrl: authorUrl(platform, submission.username, submission.url),
        authorProfileImage: null,
        content: submission.content,
        url: submission.url,
        media: [],
        createdAt: (submission.createdAt as Date).toISOString(),
        feedId: link.feedId,
        curatorId: link.curatorId,
        curatorUsername: link.curator,
        ...curatorFields(link.curator),
        curatorNotes: link.notes,
        curatorTweetId: link.curatorTweetId,
        submittedAt: new Date(link.submittedAt).toISOString(),
        approver: decision.moderator,
        approvalNote: decision.note,
        approvedAt: at.toISOString(),
      };
      planJobs.push({
        id: seededUuid(jobIds),
        kind: "approval",
        submissionId: tweetId,
        feedId: link.feedId,
        status: "pending",
        idempotencyKey: key,
        publicationKey: key,
        plan: earlier ? earlierPlan(spec, base, input) : null,
        createdAt: at,
        updatedAt: at,
      });
    }
    planActivities.push({
      userId: decision.moderator,
      type: decision.action === "approve" ? "CONTENT_APPROVAL" : "CONTENT_REJECTION",
      timestamp: at,
      feedId: link.feedId,
      submissionId: tweetId,
      data: {
        moderationDetails: {
          action: decision.action,
          source: decision.source,
          moderatorAccountIdType: decision.idType,
          note: decision.note,
        },
      },
      metadata: { platform: decision.idType === "near" ? "near" : platform },
      createdAt: at,
      updatedAt: at,
    });
  };

  ages.forEach((age, index) => {
    const submittedAt = now - age;
    const unrouted = unroutedAt.has(index);
    const eligible = activeFeeds.filter((s) => now - s.createdDaysAgo * DAY < submittedAt - HOUR);
    const primary = unrouted ? null : rng.weighted(eligible.map((s) => [s, s.weight] as const));

    const feedIds: string[] = [];
    if (primary) {
      feedIds.push(primary.id);
      const extra = rng.weighted([
        [0, 82],
        [1, 14],
        [2, 4],
      ]);
      const related = primary.related.filter((id) => eligible.some((s) => s.id === id));
      feedIds.push(...rng.sample(related, extra));
    } else {
      feedIds.push(ALL_FEED_ID);
    }

    const author = rng.weighted(authorWeights);
    const firstCurator = primary ? pickCurator(primary.id) : rng.pick(curatorOrder);
    const postRng = new Random(hashString(`${index}:${author}`));
    const postedAt =
      submittedAt -
      rng.weighted([
        [rng.int(2, 90) * MINUTE, 60],
        [rng.int(90, 24 * 60) * MINUTE, 30],
        [rng.int(1, 4) * DAY, 10],
      ]);
    const tweetId = snowflake(postedAt, postRng);
    let content = contentFor(primary?.id ?? rng.pick(activeFeeds).id);
    if (usedContent.has(content)) content = `${content} ${rng.pick(GENERIC_TAKES)}`;
    usedContent.add(content);

    const links: LinkDraft[] = [];
    const firstReply = snowflake(submittedAt, postRng);
    const firstNotes = noteFor();
    feedIds.forEach((feedId, i) => {
      const spec = specById.get(feedId);
      // Cross-posts: sometimes the same reply named several hashtags, sometimes another curator added it later.
      const otherCurator = i > 0 && rng.chance(0.45);
      const curator = otherCurator ? pickCurator(feedId, firstCurator) : firstCurator;
      const at = otherCurator
        ? Math.min(now - 2 * MINUTE, submittedAt + rng.int(10, 36 * 60) * MINUTE)
        : submittedAt;
      const linkAt = Math.max(at, submittedAt + i * 1000);
      const { status, decidedAt } = linkOutcome(rng, now, linkAt, Boolean(spec));
      links.push({
        feedId,
        curator,
        curatorId: xUserId(curator),
        notes: otherCurator ? noteFor() : firstNotes,
        curatorTweetId: otherCurator ? snowflake(linkAt, postRng) : firstReply,
        submittedAt: linkAt,
        status,
        decidedAt,
      });
    });

    const submission: typeof submissions.$inferInsert = {
      tweetId,
      userId: xUserId(author),
      username: author,
      authorProfileImage: null,
      content,
      url: `https://x.com/${author}/status/${tweetId}`,
      curatorId: xUserId(firstCurator),
      curatorUsername: firstCurator,
      curatorNotes: firstNotes,
      curatorTweetId: firstReply,
      status: "pending",
      createdAt: new Date(postedAt),
      submittedAt: new Date(submittedAt),
      updatedAt: new Date(submittedAt),
    };
    planSubmissions.push(submission);

    for (const link of links) {
      const spec = specById.get(link.feedId);
      recordLink(submission, link, spec, spec ? decide(rng, spec, link, spec.approvers) : null);
    }
  });

  // Posts from Bluesky, Mastodon, Telegram and blogs, curated the same way into the same feeds.
  const netRng = new Random(NETWORK_SEED);
  const chats = telegramChats(netRng);
  const usedKeys = new Set<string>();
  const networkAges = Array.from(
    { length: NETWORK_POST_COUNT },
    () => 20 * MINUTE + Math.floor(netRng.next() ** 1.7 * SPREAD_DAYS * DAY),
  ).sort((a, b) => b - a);
  for (const age of networkAges) {
    const submittedAt = now - age;
    const eligible = activeFeeds.filter((s) => now - s.createdDaysAgo * DAY < submittedAt - HOUR);
    if (eligible.length === 0) continue;
    const network = netRng.weighted(NETWORK_SHARE);
    const primary = netRng.weighted(eligible.map((s) => [s, s.weight] as const));
    const related = primary.related.filter((id) => eligible.some((s) => s.id === id));
    const feedIds = [primary.id, ...(netRng.chance(0.15) ? netRng.sample(related, 1) : [])];
    // A blog's item is found by its feed's source within minutes; a post waits for a curator a while longer.
    const postedAt = submittedAt - netRng.int(3, network === "rss" ? 30 : 20 * 60) * MINUTE;
    const headline = netRng.pick(primary.topic.headlines);
    let content =
      network === "rss"
        ? `${headline}\n\n${netRng.pick(primary.topic.takes)} ${netRng.pick(GENERIC_TAKES)}`
        : composePost(netRng, primary.topic);
    if (usedContent.has(content)) content = `${content} ${netRng.pick(GENERIC_TAKES)}`;
    usedContent.add(content);
    const post = networkPost(network, netRng, { at: postedAt, headline, feedId: primary.id }, chats);
    // One blog writing the same headline twice in a day would be one article: the demo keeps the first.
    if (usedKeys.has(post.key)) continue;
    usedKeys.add(post.key);
    const people = network === "rss" ? null : NETWORK_PEOPLE[network];
    const curator = people ? netRng.pick(people.curators) : null;
    const curatorKey = curator ? handleOnPlatform(network, curator.handle) : null;
    // What a feed source finds is curated by the source (intake's `source:<search key>`). The demo leaves the
    // source out of the feed's config: a fresh install must not fetch from the internet on its first pass.
    const curatorId = curator
      ? curatorIdOn(network, curator)
      : `source:feed:${primary.id}:1:${new URL(post.userId).host}`;
    const notes = curator && netRng.chance(0.7) ? netRng.pick(GENERIC_NOTES) : null;
    const replyKey = curator ? post.replyKey(curator, submittedAt) : null;
    const submission: typeof submissions.$inferInsert = {
      tweetId: post.key,
      platform: network,
      userId: post.userId,
      username: post.username,
      authorDisplayName: post.displayName,
      authorProfileImage: null,
      content,
      url: post.url,
      curatorId,
      curatorUsername: curatorKey,
      curatorNotes: notes,
      curatorTweetId: replyKey,
      status: "pending",
      createdAt: new Date(postedAt),
      submittedAt: new Date(submittedAt),
      updatedAt: new Date(submittedAt),
    };
    planSubmissions.push(submission);
    feedIds.forEach((feedId, i) => {
      const spec = specById.get(feedId)!;
      const linkAt = submittedAt + i * 1000;
      const { status, decidedAt } = linkOutcome(netRng, now, linkAt, true);
      const link: LinkDraft = {
        feedId,
        curator: curatorKey,
        curatorId,
        notes,
        curatorTweetId: replyKey,
        submittedAt: linkAt,
        status,
        decidedAt,
      };
      const approvers =
        network === "rss"
          ? []
          : (NETWORK_APPROVERS[feedId]?.[network] ?? []).map((handle) => handleOnPlatform(network, handle));
      recordLink(submission, link, spec, decide(netRng, spec, link, approvers));
    });
  }

  const byTime = <T extends { createdAt?: Date }>(rows: T[]) =>
    rows.sort((a, b) => (a.createdAt?.getTime() ?? 0) - (b.createdAt?.getTime() ?? 0));

  return {
    images,
    users: planUsers,
    feeds: planFeeds,
    submissions: planSubmissions,
    links: planLinks,
    moderation: byTime(planModeration),
    activities: byTime(planActivities),
    jobs: byTime(planJobs),
    curators: curatorsUsed.size,
  };
}
