import { authorUrl, curatorFields, moderatorFields, networkName, type Platform } from "@curate/core";
import { sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { isoUtc, queryRows } from "../db/sql.ts";

/**
 * The first input of a submission's pipeline (docs/plugins.md): the post as the feed sees it, in camelCase.
 * `url` is the post's own address as its source adapter built it; curator fields and `submittedAt` are this
 * feed's; `approver`/`approvalNote` come from the feed's latest approval. `network` names where the post lives
 * (its network, or a blog post's site) and `authorUrl` its author's page there, so templates need not assume X;
 * `curatorNetwork`, `curatorHandle` and `curatorProfileUrl` spell out the stored curator key as the API does.
 */
export interface SubmissionInput {
  tweetId: string;
  platform: Platform;
  network: string;
  userId: string;
  username: string;
  authorUrl: string | null;
  authorProfileImage: string | null;
  content: string;
  url: string | null;
  media: Array<{ url: string; type: string; alt?: string | null }>;
  createdAt: string;
  feedId: string;
  curatorId: string | null;
  curatorUsername: string | null;
  curatorNetwork: Platform | null;
  curatorHandle: string | null;
  curatorProfileUrl: string | null;
  curatorNotes: string | null;
  curatorTweetId: string | null;
  submittedAt: string;
  /** The approving moderator as stored: a NEAR account, or a handle key ("mastodon:mo@social.example"). */
  approver: string | null;
  /** The same person as templates should name them: their network (none for a NEAR account), handle and profile. */
  approverNetwork: Platform | null;
  approverHandle: string | null;
  approverProfileUrl: string | null;
  approvalNote: string | null;
  approvedAt: string | null;
}

export async function submissionInput(
  db: Database,
  submissionId: string,
  feedId: string,
): Promise<SubmissionInput | null> {
  const [row] = await queryRows<
    Omit<
      SubmissionInput,
      | "network"
      | "authorUrl"
      | keyof ReturnType<typeof curatorFields>
      | keyof ReturnType<typeof approverFields>
    > & { approverIdType: "near" | "platform_username" | null }
  >(
    db,
    sql`select s.tweet_id as "tweetId", s.platform, s.user_id as "userId", s.username,
        s.author_profile_image as "authorProfileImage", s.content, s.url,
        coalesce(s.media, '[]'::jsonb) as media, ${isoUtc("s.created_at")} as "createdAt",
        sf.feed_id as "feedId",
        coalesce(sf.curator_id, s.curator_id) as "curatorId",
        coalesce(sf.curator_username, s.curator_username) as "curatorUsername",
        sf.curator_notes as "curatorNotes",
        coalesce(sf.curator_tweet_id, s.curator_tweet_id) as "curatorTweetId",
        ${isoUtc("sf.submitted_at")} as "submittedAt",
        mh.moderator_account_id as approver, mh.moderator_account_id_type as "approverIdType",
        mh.note as "approvalNote",
        ${isoUtc("mh.created_at")} as "approvedAt"
      from submissions s
      join submission_feeds sf on sf.submission_id = s.tweet_id and sf.feed_id = ${feedId}
      left join lateral (
        select moderator_account_id, moderator_account_id_type, note, created_at from moderation_history
        where submission_id = s.tweet_id and feed_id = ${feedId} and action = 'approve'
        order by created_at desc, id desc limit 1
      ) mh on true
      where s.tweet_id = ${submissionId}`,
  );
  if (!row) return null;
  const { approverIdType, ...input } = row;
  return {
    ...input,
    network: networkName(row.platform, row.url),
    authorUrl: authorUrl(row.platform, row.username, row.url),
    ...curatorFields(row.curatorUsername),
    ...approverFields(row.approver, approverIdType),
  };
}

function approverFields(accountId: string | null, idType: "near" | "platform_username" | null) {
  if (!accountId || !idType) return { approverNetwork: null, approverHandle: null, approverProfileUrl: null };
  const { moderatorNetwork, moderatorHandle, moderatorProfileUrl } = moderatorFields(accountId, idType);
  return {
    approverNetwork: moderatorNetwork,
    approverHandle: moderatorHandle,
    approverProfileUrl: moderatorProfileUrl,
  };
}
