import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";

/** The PostgreSQL channel on which every process tells the others that stored data changed. */
export const CHANGES_CHANNEL = "curate_changes";

/** The API answer's header naming the newest change the answer has read. */
export const CHANGE_VERSION_HEADER = "X-Change-Version";

/**
 * Word that stored data changed (an HTTP write, intake, jobs), so whatever keeps answers in memory (the read cache,
 * the page cache) can drop them. Writers call `notify`; readers subscribe.
 *
 * Each change has a version, and `version()` is the newest one whose answers this process has dropped: a request
 * that starts when it is `v` reads every change up to `v` (decision 0038). The API sends it as `X-Change-Version`.
 */
export interface ChangeNotifier {
  /** Drops what this process keeps at once, then tells every other process; resolves with the change's version. */
  notify(): Promise<number>;
  subscribe(listener: () => void): () => void;
  version(): number;
  /** Stops hearing other processes. */
  close(): Promise<void>;
}

function listenerSet() {
  const listeners = new Set<() => void>();
  return {
    drop() {
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** One process on its own (the embedded database belongs to one process): the version is a counter. */
export function createChangeNotifier(): ChangeNotifier {
  const listeners = listenerSet();
  let version = 0;
  return {
    async notify() {
      version += 1;
      listeners.drop();
      return version;
    },
    subscribe: listeners.subscribe,
    version: () => version,
    close: async () => {},
  };
}

/**
 * Processes sharing one PostgreSQL database: each change is a NOTIFY on `CHANGES_CHANNEL` carrying a transaction id
 * as its version. PostgreSQL hands transaction ids out in increasing order across every connection, and a writer
 * takes its id after its change committed, so a process that has heard `v` (and dropped its answers then) reads
 * every change numbered up to `v`. Every notification drops (a smaller one heard late may be a change the last drop
 * predates); a reconnect drops too, since notifications sent while it was away are lost.
 */
export async function shareChanges(
  database: DatabaseHandle,
  onError: (error: unknown) => void = () => {},
): Promise<ChangeNotifier> {
  const listeners = listenerSet();
  let version = 0;
  const reach = (heard: number) => {
    listeners.drop();
    if (heard > version) version = heard;
  };
  const stop = await database.listen(CHANGES_CHANNEL, (payload) => {
    const heard = Number(payload);
    if (payload && Number.isSafeInteger(heard)) reach(heard);
    else listeners.drop();
  });
  return {
    async notify() {
      // This process's next read sees the change without waiting for the database's round trip.
      listeners.drop();
      try {
        const [row] = await queryRows<{ version: string }>(
          database.db,
          sql`select v::text as version, pg_notify(${CHANGES_CHANNEL}, v::text)
            from (select txid_current() as v) as change`,
        );
        // Dropped again: a change numbered below this one may have committed since the first drop.
        reach(Number(row.version));
      } catch (error) {
        // The others then see the change when their cached answers expire (READ_CACHE_TTL_MS).
        onError(error);
      }
      return version;
    },
    subscribe: listeners.subscribe,
    version: () => version,
    close: stop,
  };
}
