import { z } from "zod";

const text = z.string().max(2000).optional().catch(undefined);

/**
 * /create/feed?name=…&description=…&id=…&image=… starts the draft with those values. Route search schemas
 * load with the route tree on every page, so this module holds nothing else.
 */
export const prefillSearchSchema = z.object({ name: text, description: text, id: text, image: text });
export type PrefillSearch = z.infer<typeof prefillSearchSchema>;
