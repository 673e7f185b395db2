import {
  BUILTIN_CONFIG_SCHEMAS,
  effectiveStepConfig,
  type FeedConfig,
  findBuiltinPlugin,
  type PluginType,
} from "@curate/core";
import { inArray } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { plugins } from "../db/schema.ts";
import { configProblems } from "../plugins/json-schema.ts";
import { scheduleError } from "./schedules.ts";
import { findRawSecrets } from "./secrets.ts";

export interface ConfigIssue {
  path: string;
  message: string;
}

interface PluginUse {
  path: string;
  plugin: string;
  config: unknown;
  type: PluginType;
}

/** Every place a feed config names a plugin, with the kind of plugin that place needs. */
function pluginUses(config: FeedConfig): PluginUse[] {
  const uses: PluginUse[] = [];
  const steps = (
    list: Array<{ plugin: string; config?: unknown }> | undefined,
    path: string,
    type: PluginType,
  ) => {
    for (const [i, step] of (list ?? []).entries()) {
      uses.push({ path: `${path}.${i}`, plugin: step.plugin, config: step.config, type });
    }
  };
  steps(config.sources, "sources", "source");
  const stream = config.outputs?.stream;
  steps(stream?.transform, "outputs.stream.transform", "transformer");
  (stream?.distribute ?? []).forEach((distributor, i) => {
    uses.push({
      path: `outputs.stream.distribute.${i}`,
      plugin: distributor.plugin,
      config: distributor.config,
      type: "distributor",
    });
    steps(distributor.transform, `outputs.stream.distribute.${i}.transform`, "transformer");
  });
  // Recaps (one or a list): their per-item and batch transforms, and their distributors.
  const recap = config.outputs?.recap;
  const recaps = Array.isArray(recap) ? recap : recap ? [recap] : [];
  recaps.forEach((item, k) => {
    const at = Array.isArray(recap) ? `outputs.recap.${k}` : "outputs.recap";
    steps(item.transform, `${at}.transform`, "transformer");
    steps(item.batchTransform, `${at}.batchTransform`, "transformer");
    (item.distribute ?? []).forEach((distributor, i) => {
      uses.push({
        path: `${at}.distribute.${i}`,
        plugin: distributor.plugin,
        config: distributor.config,
        type: "distributor",
      });
      steps(distributor.transform, `${at}.distribute.${i}.transform`, "transformer");
    });
  });
  return uses;
}

const ARTICLE: Record<PluginType, string> = {
  transformer: "a transformer",
  distributor: "a distributor",
  source: "a source",
  rule: "a rule",
  outcome: "an outcome",
};

/**
 * What a stored config must hold besides its shape: plugins this server knows (built in, or registered), of the
 * kind each place needs, with configs their schemas accept; no raw credentials; schedules that can be read.
 */
export async function configIssues(db: Database, config: FeedConfig): Promise<ConfigIssue[]> {
  const issues: ConfigIssue[] = findRawSecrets(config);
  const schedule = config.ingestion?.schedule;
  const unreadable = schedule ? scheduleError(schedule) : null;
  if (unreadable) issues.push({ path: "ingestion.schedule", message: unreadable });

  const uses = pluginUses(config);
  const external = [...new Set(uses.filter((u) => !findBuiltinPlugin(u.plugin)).map((u) => u.plugin.trim()))];
  const registered = external.length
    ? new Map(
        (
          await db
            .select({ name: plugins.name, type: plugins.type, schema: plugins.schemaDefinition })
            .from(plugins)
            .where(inArray(plugins.name, external))
        ).map((row) => [row.name, { type: row.type as PluginType, schema: row.schema }]),
      )
    : new Map<string, { type: PluginType; schema: Record<string, unknown> | null }>();

  for (const use of uses) {
    const builtin = findBuiltinPlugin(use.plugin);
    const entry = registered.get(use.plugin.trim());
    const type = builtin?.type ?? entry?.type;
    if (!type) {
      issues.push({
        path: `${use.path}.plugin`,
        message: `Unknown plugin "${use.plugin}": use a built-in @curate/ plugin or register it on the Plugins page first.`,
      });
      continue;
    }
    if (type !== use.type) {
      issues.push({
        path: `${use.path}.plugin`,
        message: `"${use.plugin}" is ${ARTICLE[type]}; this place needs ${ARTICLE[use.type]}.`,
      });
      continue;
    }
    if (!builtin) {
      // A registered plugin describes its config with a JSON Schema: saved configs are checked against it too.
      for (const problem of entry?.schema ? configProblems(entry.schema, use.config ?? {}) : []) {
        issues.push({
          path: [`${use.path}.config`, ...(problem.path ? [problem.path] : [])].join("."),
          message: problem.message,
        });
      }
      continue;
    }
    const schema = BUILTIN_CONFIG_SCHEMAS[builtin.name];
    if (!schema) continue;
    // What the step will run with: a NEAR step may leave its account to the feed's integration settings.
    const parsed = schema.safeParse(
      effectiveStepConfig(
        builtin.name,
        use.config as Record<string, unknown> | undefined,
        config.integrations,
      ),
    );
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = [`${use.path}.config`, ...issue.path.map(String)].join(".");
        // A raw credential already has its own, plainer message at this path.
        if (!issues.some((known) => known.path === path)) issues.push({ path, message: issue.message });
      }
    }
  }
  return issues;
}
