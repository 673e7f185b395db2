import { type CrosspostConnectedAccount, crosspostConnectedAccountSchema } from "@curate/core";
import type { Logger } from "pino";
import { z } from "zod";
import { AppError } from "../errors.ts";
import { callExternal, ExternalServiceError } from "./http.ts";

const accountsAnswerSchema = z.looseObject({
  data: z.looseObject({ accounts: z.array(crosspostConnectedAccountSchema).max(100) }),
});

/**
 * The accounts Crosspost says `nearAccountId` connected (each after its own platform login). Crosspost answers
 * reads for the account named in `X-Near-Account`; what it answers is its word, not the browser's.
 */
export async function crosspostConnectedAccounts(
  baseUrl: string,
  nearAccountId: string,
  logger?: Logger,
): Promise<CrosspostConnectedAccount[]> {
  let response: Response;
  try {
    response = await callExternal(
      new URL("/api/auth/accounts", baseUrl),
      { method: "GET", headers: { accept: "application/json", "X-Near-Account": nearAccountId } },
      { service: "Crosspost", reach: "configured", retries: 1, timeoutMs: 10_000, logger },
    );
  } catch (err) {
    if (err instanceof ExternalServiceError)
      throw AppError.unavailable("Crosspost cannot be reached now; try again.");
    throw err;
  }
  if (response.status === 401 || response.status === 403) {
    throw AppError.forbidden("Authentication with Crosspost failed. Please try reconnecting.");
  }
  if (!response.ok) throw AppError.unavailable(`Crosspost answered ${response.status}; try again.`);
  const parsed = accountsAnswerSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw AppError.unavailable("Crosspost answered in an unexpected shape; try again.");
  return parsed.data.data.accounts;
}
