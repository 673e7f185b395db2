import { z } from "zod";

/**
 * A stored config (a feed's, or a registered plugin's) that holds what looks like a raw credential, found after it
 * was saved (a shape the scan learnt later, or an import). It is hidden from everyone but its owners and does not
 * run until they save it without the credential; each finding names where and what kind, never the value.
 */
export const configQuarantineSchema = z.object({
  findings: z.array(z.object({ path: z.string(), message: z.string() })),
});
export type ConfigQuarantine = z.infer<typeof configQuarantineSchema>;
