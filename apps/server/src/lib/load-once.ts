/**
 * Something loaded on first use and shared by every caller after, unless it failed: a failed load is forgotten, so
 * the next call tries again (a plugin's module, a queue whose tables are not installed yet).
 */
export interface LoadOnce<T> {
  get(): Promise<T>;
  /** The load under way or done, or null when none is (not asked for yet, or the last one failed). */
  current(): Promise<T> | null;
}

/** `cleanUp` runs after a failed load, before its callers hear of the failure. */
export function loadOnce<T>(
  load: () => Promise<T>,
  cleanUp?: (error: unknown) => Promise<void> | void,
): LoadOnce<T> {
  let loading: Promise<T> | null = null;
  return {
    get() {
      loading ??= load().catch(async (error: unknown) => {
        loading = null;
        await cleanUp?.(error);
        throw error;
      });
      return loading;
    },
    current: () => loading,
  };
}
