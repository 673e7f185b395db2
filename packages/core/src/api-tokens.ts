import { z } from "zod";
import { API_SCOPES, API_TOKEN_LIMITS } from "./api-token-rules.ts";
import { pagedSchema, pageQuery } from "./envelope.ts";

/** POST /api/users/me/api-tokens. */
export const apiTokenCreateRequestSchema = z.object({
  name: z
    .string({ error: "Give the token a name" })
    .trim()
    .min(1, "Give the token a name")
    .max(API_TOKEN_LIMITS.nameLength, `At most ${API_TOKEN_LIMITS.nameLength} characters`),
  scopes: z
    .array(z.enum(API_SCOPES))
    .min(1, "Choose at least one scope")
    .max(API_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, "Name each scope once"),
  /** Days until it stops working; null or absent: until revoked. */
  expiresInDays: z
    .number()
    .int()
    .min(1, "At least one day")
    .max(API_TOKEN_LIMITS.maxExpiryDays, `At most ${API_TOKEN_LIMITS.maxExpiryDays} days`)
    .nullable()
    .optional(),
});
export type ApiTokenCreateRequest = z.infer<typeof apiTokenCreateRequestSchema>;

/** A token as its owner sees it: never its secret, which is stored only as a hash. */
export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  /** The prefix and the first characters of the secret, to tell tokens apart ("curate_pat_AbCd…"). */
  hint: z.string(),
  status: z.enum(["active", "expired", "revoked"]),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to a creation: the token and, this once, its secret. */
export const apiTokenCreatedSchema = z.object({ token: apiTokenSchema, secret: z.string() });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

export const apiTokenListQuerySchema = z.object(pageQuery);
export const apiTokenPageSchema = pagedSchema(apiTokenSchema);

export const apiTokenIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** One change made with a token, as its owner's private activity lists it. */
export const apiTokenUseSchema = z.object({
  id: z.number().int(),
  tokenId: z.string(),
  tokenName: z.string(),
  method: z.string(),
  /** The route as the API documents it (`/moderate`, `/feeds/{id}`). */
  route: z.string(),
  status: z.number().int(),
  at: z.string(),
});
export type ApiTokenUse = z.infer<typeof apiTokenUseSchema>;

export const apiTokenActivityQuerySchema = z.object(pageQuery);
export const apiTokenActivityPageSchema = pagedSchema(apiTokenUseSchema);
