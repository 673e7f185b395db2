import type { ApiCredential } from "./api-tokens/service.ts";
import type { User } from "./db/schema.ts";

/**
 * What every API request carries through its middleware: its id and who sends it (a session or an API token).
 */
export interface AppBindings {
  Variables: {
    requestId: string;
    user: User | null;
    apiToken: ApiCredential | null;
    apiRoute?: string;
  };
}
