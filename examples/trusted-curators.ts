/**
 * A moderation bot on the typed client (packages/client): approves the pending posts of one feed whose curator is
 * on a trusted list and leaves every other post for a person. Run it with a token that has the `read` and `moderate`
 * scopes, made in Settings → API tokens by an account that moderates the feed:
 *
 *   CURATE_URL=https://curate.example CURATE_TOKEN=curate_pat_… FEED_ID=ai TRUSTED_CURATORS=alice,bob \
 *     npx tsx examples/trusted-curators.ts
 *
 * Its approvals show "via API token" in the feed's public moderation log.
 */
import { createCurateClient, dataOf } from "@curate/client";

/** Posts read per run at most: a bot that falls far behind is better caught up by a person. */
const MAX_PAGES = 10;

function setting(name: string): string {
  const value = process.env[name]?.trim();
  if (!value) throw new Error(`Set ${name} (see the comment at the top of this file).`);
  return value;
}

const feedId = setting("FEED_ID");
const trusted = new Set(
  setting("TRUSTED_CURATORS")
    .split(",")
    .map((handle) => handle.trim().replace(/^@/, "").toLowerCase())
    .filter(Boolean),
);
const client = createCurateClient({ baseUrl: setting("CURATE_URL"), token: setting("CURATE_TOKEN") });

// Read every pending post first: approving while paging would move later posts onto pages already read.
const pending = [];
for (let page = 0; page < MAX_PAGES; page++) {
  const { items, pagination } = dataOf(
    await client.GET("/submissions/feed/{feedId}", {
      params: { path: { feedId }, query: { status: "pending", sortOrder: "oldest", limit: 100, page } },
    }),
  );
  pending.push(...items);
  if (!pagination.hasNextPage) break;
}

let approved = 0;
for (const post of pending) {
  const curator = (post.curatorUsername ?? "").toLowerCase();
  if (!trusted.has(curator)) {
    console.log(`left ${post.tweetId} (@${curator || "unknown"}) for a person`);
    continue;
  }
  const outcome = dataOf(
    await client.POST("/moderate", {
      body: { submissionId: post.tweetId, feedId, action: "approve", note: `Trusted curator @${curator}` },
    }),
  );
  approved++;
  console.log(`approved ${post.tweetId} (@${curator}): ${outcome.status}`);
}
console.log(`Approved ${approved} of ${pending.length} pending posts in #${feedId}.`);
