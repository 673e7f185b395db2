import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api";

const MAX_RETRIES = 2;

/** Half a second, then a second: a failing read gives up (and says so) about 1.5 s after its first answer. */
export const retryDelay = (attempt: number) => 500 * 2 ** attempt;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // A 4xx will not change by asking again; only transient failures are retried.
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
          return failureCount < MAX_RETRIES;
        },
        retryDelay,
      },
    },
  });
}
