import type { ApiCredential } from "./api-tokens/service.ts";
import type { User } from "./db/schema.ts";

/**
 * What every API request carries through its middleware: its id, who sends it (a session or an API token), and
 * whether its answer is checked against its route's contract (test servers, CHECK_RESPONSE_CONTRACTS).
 */
export interface AppBindings {
  Variables: {
    requestId: string;
    user: User | null;
    apiToken: ApiCredential | null;
    apiRoute?: string;
    checkResponseContracts?: boolean;
  };
}
