import { errorEnvelopeSchema } from "@curate/core";
import { z } from "zod";

export const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: errorEnvelopeSchema } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/**
 * Errors a route may answer whether it lists them or not: 500 and 503 anywhere, 400 wherever the router validates a
 * request part (the rule test servers check is in response-contracts.ts). A route lists them to describe its own.
 */
export const commonErrors = {
  400: errorResponse("Invalid input (VALIDATION_ERROR); details list the field issues"),
  500: errorResponse("Unexpected failure (INTERNAL_ERROR)"),
  503: errorResponse("Database unavailable (UNAVAILABLE)"),
};

export const idParam = (name: string, description: string) =>
  z.object({ [name]: z.string().min(1).max(200).describe(description) });
