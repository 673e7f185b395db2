import {
  builtinPluginName,
  canonicalPluginName,
  effectiveStepConfig,
  type FeedConfig,
  findBuiltinPlugin,
} from "@curate/core";

/** One transform or distribution of a plan, as the feed's config said when the job started. */
export interface PlanStep {
  plugin: string;
  config: Record<string, unknown>;
}

/** A distributor with its own transforms; branches run independently of each other. */
export interface PlanBranch {
  index: number;
  transforms: PlanStep[];
  distributor: PlanStep;
}

/** Where a job enters the plan: a chain (the global transforms, or one branch) from a position, with an input. */
export interface PlanEntry {
  chain: "global" | number;
  from: number;
  input: unknown;
}

export interface Plan {
  transforms: PlanStep[];
  branches: PlanBranch[];
  entries: PlanEntry[];
  /**
   * A recap's plan (decision 0013): the first `perItem` global transforms run on each of the digest's `items`;
   * the rest are its batch stage, run once on the whole digest.
   */
  perItem?: number;
}

/** A step's stage: global, distributor, or batch (a recap's transforms over its whole list). */
export function stageOf(
  plan: Plan,
  chain: "global" | number,
  position: number,
): "global" | "distributor" | "batch" {
  if (chain !== "global") return "distributor";
  return plan.perItem !== undefined && position >= plan.perItem ? "batch" : "global";
}

/** Whether a step runs once per item of a recap's digest. */
export function runsPerItem(plan: Plan, chain: "global" | number, position: number): boolean {
  return chain === "global" && plan.perItem !== undefined && position < plan.perItem;
}

/** Why a plan has nothing to run, or null when it has work. */
export function emptyPlanReason(config: FeedConfig): string | null {
  const stream = config.outputs?.stream;
  if (!stream || stream.enabled === false) return "Stream output is disabled for this feed: nothing to run.";
  if (!stream.distribute?.length)
    return "No distributors are configured in this feed's stream: nothing to publish.";
  return null;
}

/**
 * A step as the plan snapshots it: its canonical plugin name and the config it runs with, which for a NEAR step
 * includes what it takes from the feed's integration settings (so the step's record shows what it ran with).
 */
export function planStep(
  entry: { plugin: string; config?: Record<string, unknown> },
  integrations?: FeedConfig["integrations"],
): PlanStep {
  return {
    plugin: canonicalPluginName(entry.plugin),
    config: effectiveStepConfig(builtinPluginName(entry.plugin), entry.config, integrations),
  };
}

/**
 * The plan of a feed's stream output (DESIGN §7): its global transforms in order, then one branch per distributor
 * (the distributor's own transforms, then its distribution). Snapshotted on the job when it starts, so later
 * edits of the feed never change a job under way.
 */
export function planFromConfig(config: FeedConfig, input: unknown): Plan {
  const stream = config.outputs?.stream;
  const step = (entry: { plugin: string; config?: Record<string, unknown> }) =>
    planStep(entry, config.integrations);
  return {
    transforms: (stream?.transform ?? []).map(step),
    branches: (stream?.distribute ?? []).map((distributor, index) => ({
      index,
      transforms: (distributor.transform ?? []).map(step),
      distributor: step(distributor),
    })),
    entries: [{ chain: "global", from: 0, input }],
  };
}

/** The steps of one chain, in order: the global transforms, or a branch's transforms then its distribution. */
export function chainSteps(plan: Plan, chain: "global" | number): PlanStep[] {
  if (chain === "global") return plan.transforms;
  const branch = plan.branches[chain];
  return branch ? [...branch.transforms, branch.distributor] : [];
}

/** A readable name for a step: "AI transform", "RSS · Object transform", "RSS". */
export function stepName(plan: Plan, chain: "global" | number, position: number): string {
  const label = (plugin: string) => findBuiltinPlugin(plugin)?.label ?? plugin;
  if (chain === "global") {
    const name = label(plan.transforms[position]?.plugin ?? "");
    if (plan.perItem === undefined) return name;
    return runsPerItem(plan, chain, position) ? `${name} (each item)` : `${name} (batch)`;
  }
  const branch = plan.branches[chain];
  if (!branch) return "";
  const distributor = label(branch.distributor.plugin);
  return position < branch.transforms.length
    ? `${distributor} · ${label(branch.transforms[position].plugin)}`
    : distributor;
}
