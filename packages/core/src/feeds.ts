import { z } from "zod";
import { ACKNOWLEDGEMENT_NETWORKS } from "./acknowledgement-rules.ts";
import { configQuarantineSchema } from "./config-quarantine.ts";
import {
  FEED_FORM_MESSAGES,
  FEED_ID_MESSAGES,
  FEED_ID_PATTERN,
  FEED_LIMITS,
  isUploadReference,
  MAX_POLLING_INTERVAL_MS,
  MAX_UNDO_WINDOW_SECONDS,
  MIN_POLLING_INTERVAL_MS,
} from "./feed-rules.ts";
import {
  GOVERNANCE_MESSAGES,
  MAX_QUORUM_APPROVALS,
  QUORUM_REJECTION_RULES,
  TRUST_LIMITS,
} from "./governance-rules.ts";
import {
  isValidTimezone,
  RECAP_ID_PATTERN,
  RECAP_LIMITS,
  scheduleProblem,
  TIMEZONE_MESSAGE,
} from "./recap-rules.ts";
import { MAX_DECIDE_WITHIN_HOURS, MIN_DECIDE_WITHIN_HOURS } from "./reputation-rules.ts";
import { secretField } from "./secret-fields.ts";

export const DECIDE_WITHIN_MESSAGE = `Decide within must be a whole number of hours from ${MIN_DECIDE_WITHIN_HOURS} to ${MAX_DECIDE_WITHIN_HOURS}`;

/** Feed ids are lower-case: "ToDelete1" is accepted and stored as "todelete1". */
export const feedIdSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, FEED_ID_MESSAGES.required)
  .max(FEED_LIMITS.idLength, FEED_ID_MESSAGES.tooLong)
  .regex(FEED_ID_PATTERN, FEED_ID_MESSAGES.characters);

const configMap = z.record(z.string().max(200), z.unknown());
const text = (max: number, what: string) => z.string().max(max, `${what} must be at most ${max} characters`);
const list = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z.array(item).max(max, `At most ${max} ${what}`);

/** http(s) only: an image or link a browser follows must not be `javascript:` or `data:`. */
export const httpUrlSchema = z
  .url({ protocol: /^https?$/, message: "Must be an http(s) URL" })
  .max(FEED_LIMITS.urlLength, `A URL must be at most ${FEED_LIMITS.urlLength} characters`);

export const IMAGE_MESSAGE = "The image must be an uploaded image or an http(s) URL";

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
};

/** A feed's image: one of this server's uploads (by its path), an http(s) URL, or empty for none. One rule, one message. */
export const feedImageSchema = z
  .string()
  .max(FEED_LIMITS.urlLength, `A URL must be at most ${FEED_LIMITS.urlLength} characters`)
  .refine((value) => value === "" || isUploadReference(value) || isHttpUrl(value), IMAGE_MESSAGE);

const pluginName = z
  .string()
  .min(1, "A plugin name is required")
  .max(200, "A plugin name is at most 200 characters");

export const transformStepSchema = z.looseObject({
  plugin: pluginName,
  config: configMap.optional(),
});

const transforms = list(transformStepSchema, FEED_LIMITS.transformsPerChain, "transforms in one list");

export const distributorSchema = z.looseObject({
  plugin: pluginName,
  config: configMap.optional(),
  transform: transforms.optional(),
});

export const searchSchema = z.looseObject({
  searchId: text(100, "A search id").optional(),
  type: text(50, "A search type").optional(),
  query: text(500, "A search query").optional(),
  /** What an address-based source reads (`rss-source`: the feed's URL; `query` is read when it is absent). */
  url: httpUrlSchema.optional(),
  pageSize: z.number().int().positive().max(100, "pageSize must be at most 100").optional(),
  language: text(20, "A language").optional(),
  platformArgs: configMap.optional(),
});

export const sourceSchema = z.looseObject({
  plugin: pluginName,
  config: configMap.optional(),
  search: list(searchSchema, FEED_LIMITS.searchesPerSource, "searches per source").optional(),
});

export const streamOutputSchema = z.looseObject({
  enabled: z.boolean(),
  transform: transforms.optional(),
  distribute: list(distributorSchema, FEED_LIMITS.distributors, "distributors").optional(),
});

/** A scheduled digest: its schedule is a five-part cron read in its IANA timezone (UTC if unset). */
export const recapSchema = z
  .looseObject({
    id: z
      .string()
      .trim()
      .min(1, "A recap id is required")
      .max(RECAP_LIMITS.idLength, `A recap id must be at most ${RECAP_LIMITS.idLength} characters`)
      .regex(RECAP_ID_PATTERN, "A recap id uses lower-case letters, digits, - and _"),
    name: text(RECAP_LIMITS.nameLength, "A recap name").optional(),
    enabled: z.boolean().optional(),
    schedule: z
      .string()
      .max(
        RECAP_LIMITS.scheduleLength,
        `A schedule must be at most ${RECAP_LIMITS.scheduleLength} characters`,
      ),
    timezone: text(RECAP_LIMITS.timezoneLength, "A timezone").optional(),
    transform: transforms.optional(),
    batchTransform: transforms.optional(),
    distribute: list(distributorSchema, FEED_LIMITS.distributors, "distributors").optional(),
  })
  .superRefine((recap, context) => {
    const problem = scheduleProblem(recap.schedule);
    if (problem) context.addIssue({ code: "custom", path: ["schedule"], message: problem });
    if (recap.timezone !== undefined && !isValidTimezone(recap.timezone)) {
      context.addIssue({ code: "custom", path: ["timezone"], message: TIMEZONE_MESSAGE });
    }
  });
export type Recap = z.infer<typeof recapSchema>;

const recapListSchema = list(recapSchema, FEED_LIMITS.recaps, "recaps").superRefine((recaps, context) => {
  const seen = new Set<string>();
  recaps.forEach((recap, index) => {
    if (seen.has(recap.id)) {
      context.addIssue({
        code: "custom",
        path: [index, "id"],
        message: `Two recaps share the id "${recap.id}"`,
      });
    }
    seen.add(recap.id);
  });
});

const handlesByPlatform = z
  .record(text(50, "A platform name"), list(text(100, "A handle"), FEED_LIMITS.handlesPerPlatform, "handles"))
  .refine((lists) => Object.keys(lists).length <= 20, "At most 20 platforms");

function depthOf(value: unknown, depth = 0): number {
  if (depth > FEED_LIMITS.configDepth) return depth;
  if (Array.isArray(value)) return Math.max(depth, ...value.map((item) => depthOf(item, depth + 1)));
  if (value && typeof value === "object") {
    return Math.max(depth, ...Object.values(value).map((item) => depthOf(item, depth + 1)));
  }
  return depth;
}

/** Replies on the post's own network (acknowledgement-rules.ts): every switch off unless set. */
const acknowledgementsSchema = z.strictObject({
  networks: z
    .strictObject(
      Object.fromEntries(
        ACKNOWLEDGEMENT_NETWORKS.map((network) => [network, z.boolean().optional()]),
      ) as Record<(typeof ACKNOWLEDGEMENT_NETWORKS)[number], z.ZodOptional<z.ZodBoolean>>,
    )
    .optional(),
  onSubmit: z.boolean().optional(),
  onApprove: z.boolean().optional(),
});

/**
 * A feed's NEAR account settings ("Integration settings"): the account its NEAR steps act as, when a
 * step names none of its own. The NEAR Social distributor reads them for each field its config leaves out. The key
 * is only ever a `{{NAME}}` placeholder of a secret; `rpcUrl` is a node of the feed's choosing (public addresses only).
 */
export const nearIntegrationSchema = z.strictObject({
  parentAccountId: z
    .string()
    .trim()
    .regex(
      /^(?=.{2,64}$)(([a-z\d]+[-_])*[a-z\d]+\.)*([a-z\d]+[-_])*[a-z\d]+$/,
      "A NEAR account id, such as curate.near",
    )
    .optional(),
  parentKeyPair: secretField("The account's key (ed25519:…), as a {{NAME}} placeholder").optional(),
  networkId: z.enum(["mainnet", "testnet"], "The network is mainnet or testnet").optional(),
  rpcUrl: httpUrlSchema.optional(),
});
export type NearIntegration = z.infer<typeof nearIntegrationSchema>;

/** A whole number in [min, max], one message for every way to miss it. */
const wholeNumber = (min: number, max: number, message: string) =>
  z.number(message).refine((value) => Number.isInteger(value) && value >= min && value <= max, message);

/** Quorum decisions (docs/decisions/0033): k distinct approvers, and how a post is rejected. */
export const quorumPolicySchema = z.strictObject({
  approvals: wholeNumber(1, MAX_QUORUM_APPROVALS, GOVERNANCE_MESSAGES.approvals),
  rejection: z.enum(QUORUM_REJECTION_RULES, GOVERNANCE_MESSAGES.rejection),
});

const pinnedNames = z
  .array(z.string().trim().min(1, GOVERNANCE_MESSAGES.pin).max(200, GOVERNANCE_MESSAGES.pin))
  .max(TRUST_LIMITS.pins, `At most ${TRUST_LIMITS.pins} pinned curators`);

/** Earned trust (docs/decisions/0033): who becomes trusted in this feed, and whom the owners pin in or out. */
export const trustPolicySchema = z.strictObject({
  enabled: z.boolean(),
  minApproved: wholeNumber(
    TRUST_LIMITS.minApproved.min,
    TRUST_LIMITS.minApproved.max,
    GOVERNANCE_MESSAGES.minApproved,
  ),
  minApprovalRate: wholeNumber(0, 100, GOVERNANCE_MESSAGES.minApprovalRate),
  lastDecided: wholeNumber(
    TRUST_LIMITS.lastDecided.min,
    TRUST_LIMITS.lastDecided.max,
    GOVERNANCE_MESSAGES.lastDecided,
  ),
  withinDays: wholeNumber(
    TRUST_LIMITS.withinDays.min,
    TRUST_LIMITS.withinDays.max,
    GOVERNANCE_MESSAGES.withinDays,
  ).optional(),
  confirmAfterDays: wholeNumber(
    TRUST_LIMITS.confirmAfterDays.min,
    TRUST_LIMITS.confirmAfterDays.max,
    GOVERNANCE_MESSAGES.confirmAfterDays,
  ),
  pinned: z.strictObject({ trusted: pinnedNames.optional(), untrusted: pinnedNames.optional() }).optional(),
  offerApprover: z
    .strictObject({
      minApproved: wholeNumber(
        TRUST_LIMITS.minApproved.min,
        TRUST_LIMITS.minApproved.max,
        GOVERNANCE_MESSAGES.minApproved,
      ),
      minApprovalRate: wholeNumber(0, 100, GOVERNANCE_MESSAGES.minApprovalRate),
    })
    .optional(),
});

export const feedConfigSchema = z
  .looseObject({
    id: feedIdSchema,
    name: z
      .string()
      .min(1, FEED_FORM_MESSAGES.nameRequired)
      .max(FEED_LIMITS.nameLength, `Feed name must be at most ${FEED_LIMITS.nameLength} characters`),
    description: z
      .string()
      .min(1, FEED_FORM_MESSAGES.descriptionRequired)
      .max(
        FEED_LIMITS.descriptionLength,
        `Description must be at most ${FEED_LIMITS.descriptionLength} characters`,
      ),
    image: feedImageSchema.optional(),
    enabled: z.boolean().optional(),
    admins: list(text(64, "An admin account"), FEED_LIMITS.admins, "admins").optional(),
    // One rule, one message: a fraction, zero and too small a number are all "not a whole number ≥ 1000".
    pollingIntervalMs: z
      .number(FEED_FORM_MESSAGES.pollingInterval)
      .refine(
        (value) => Number.isInteger(value) && value >= MIN_POLLING_INTERVAL_MS,
        FEED_FORM_MESSAGES.pollingInterval,
      )
      .refine((value) => value <= MAX_POLLING_INTERVAL_MS, FEED_FORM_MESSAGES.pollingIntervalTooLong)
      .optional(),
    moderation: z
      .looseObject({
        approvers: handlesByPlatform.optional(),
        blacklist: handlesByPlatform.optional(),
        /** How long an approval waits before it is processed, so that it can be undone (0: at once). */
        undoWindowSeconds: z
          .number(FEED_FORM_MESSAGES.undoWindow)
          .refine(
            (value) => Number.isInteger(value) && value >= 0 && value <= MAX_UNDO_WINDOW_SECONDS,
            FEED_FORM_MESSAGES.undoWindow,
          )
          .optional(),
        /** Whether the public moderation log names who rejected or retracted a post (default: it does). */
        nameRejectersInLog: z.boolean().optional(),
        /** The queue's service level: posts should be decided within this many hours (approvers may be reminded). */
        decideWithinHours: z
          .number(DECIDE_WITHIN_MESSAGE)
          .refine(
            (value) =>
              Number.isInteger(value) && value >= MIN_DECIDE_WITHIN_HOURS && value <= MAX_DECIDE_WITHIN_HOURS,
            DECIDE_WITHIN_MESSAGE,
          )
          .optional(),
        /** Decisions by k distinct approvers (none: one approval decides). */
        quorum: quorumPolicySchema.optional(),
        /** Earned trust (none: off). */
        trust: trustPolicySchema.optional(),
      })
      .optional(),
    acknowledgements: acknowledgementsSchema.optional(),
    integrations: z.looseObject({ near: nearIntegrationSchema.optional() }).optional(),
    sources: list(sourceSchema, FEED_LIMITS.sources, "sources").optional(),
    ingestion: z
      .looseObject({ enabled: z.boolean().optional(), schedule: z.string().min(1).max(100).optional() })
      .optional(),
    outputs: z
      .looseObject({
        stream: streamOutputSchema.optional(),
        recap: z.union([recapSchema, recapListSchema]).optional(),
      })
      .optional(),
  })
  .superRefine((config, context) => {
    // Extra keys of older tools' configs are kept, so the whole config is bounded instead of each key.
    const size = new TextEncoder().encode(JSON.stringify(config)).length;
    if (size > FEED_LIMITS.configBytes) {
      context.addIssue({
        code: "custom",
        message: `The config is ${Math.ceil(size / 1024)} KB; at most ${FEED_LIMITS.configBytes / 1024} KB`,
      });
    }
    if (depthOf(config) > FEED_LIMITS.configDepth) {
      context.addIssue({
        code: "custom",
        message: `The config nests deeper than ${FEED_LIMITS.configDepth} levels`,
      });
    }
  });
export type FeedConfig = z.infer<typeof feedConfigSchema>;

/**
 * The feed's X searches that wait their turn for the operator's hourly X API allowance, which every feed shares
 * (the bot's own mentions and replies first, then each account's feeds in turn). Null: none wait.
 */
export const xSearchWaitSchema = z.object({
  /** How many of the feed's X searches wait. */
  searches: z.number().int(),
  /** When they began waiting. */
  since: z.string(),
  /** When they should run, roughly: the next intake pass, or the next hour when this hour's allowance is spent. */
  until: z.string(),
});
export type XSearchWait = z.infer<typeof xSearchWaitSchema>;

export const feedSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  image: z.string().nullable(),
  createdBy: z.string().nullable(),
  admins: z.array(z.string()),
  config: feedConfigSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  xSearchWait: xSearchWaitSchema.nullable(),
  /** Set only in the answers its owners get: everyone else is told there is no such feed. */
  quarantine: configQuarantineSchema.nullable(),
});
export type Feed = z.infer<typeof feedSchema>;

/** A feed as lists show it (Explore, the leaderboard's filter, profile lists): never its whole config. */
export const feedSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  image: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Its config has a name, a description and at least one source. */
  complete: z.boolean(),
  streamEnabled: z.boolean(),
  /** How many approver handles its moderation settings list, over every platform. */
  approverCount: z.number().int(),
  /** "Posting to:" facts: each distributor's kind, label and public link. */
  destinations: z.array(z.object({ kind: z.string(), label: z.string(), href: z.string().nullable() })),
});
export type FeedSummary = z.infer<typeof feedSummarySchema>;

/**
 * The precondition of PUT /feeds/{id}: the `updatedAt` the editor loaded, as an `If-Match` header. A feed changed
 * since then answers 409 instead of being overwritten.
 */
export const feedUpdateHeadersSchema = z.object({
  "if-match": z.string().max(64).optional(),
});

export const FEED_CHANGED_MESSAGE =
  "This feed was changed since you opened it (in another tab or by another editor). Reload to see the latest version; your edits here are not saved.";
