import { z } from "zod";
import type { Database } from "../apps/server/src/db/index.ts";
import { feeds } from "../apps/server/src/db/schema.ts";
import type { DistributorPlugin } from "../apps/server/src/plugins/types.ts";

/** A distributor that publishes nowhere: the bench measures the engine, not a channel. */
export const noopDistributor: DistributorPlugin<Record<string, never>> = {
  type: "distributor",
  name: "@bench/noop",
  configSchema: z.object({}),
  async render(input) {
    return { action: "noop", request: input };
  },
  async send() {
    return { reference: { kind: "noop" } };
  },
};

export const BENCH_FEED = "benchfeed";

/** The bench's feed: one object-transform, then the no-op distributor. */
export async function insertBenchFeed(db: Database) {
  await db.insert(feeds).values({
    id: BENCH_FEED,
    name: "Bench",
    config: {
      id: BENCH_FEED,
      name: "Bench",
      description: "bench",
      outputs: {
        stream: {
          enabled: true,
          transform: [
            {
              plugin: "@curate/object-transform",
              config: {
                mappings: { title: "{{content | truncate:80}}", author: "{{username}}", link: "{{url}}" },
              },
            },
          ],
          distribute: [{ plugin: "@bench/noop" }],
        },
      },
    },
  });
}
