import { placeholderName, secretFields, secretPaths } from "@curate/core";
import type { z } from "zod";
import { PluginError } from "./types.ts";

/** A secret's value and where it came from: the feed's own secret store, or the server's environment. */
export interface SecretValue {
  value: string;
  origin: "feed" | "server";
}

/** Where `{{NAME}}` values come from at run time: the feed's own secrets first, then the server's environment. */
export interface SecretSource {
  lookup(name: string): SecretValue | undefined;
}

export function secretSource(
  server: Readonly<Record<string, string>>,
  feed: Readonly<Record<string, string>> = {},
): SecretSource {
  return {
    lookup(name) {
      if (Object.hasOwn(feed, name) && feed[name]) return { value: feed[name], origin: "feed" };
      if (Object.hasOwn(server, name) && server[name]) return { value: server[name], origin: "server" };
      return undefined;
    },
  };
}

interface FieldRule {
  feedOnly: boolean;
  optional: boolean;
}

/** Marks an optional secret field whose variable is not set: the plugin runs without it. */
const UNSET = Symbol("unset");

function fill(
  value: unknown,
  path: string[],
  source: SecretSource,
  where: string[],
  rule: FieldRule,
): unknown {
  if (path.length === 0) {
    const name = placeholderName(value);
    if (!name) return value;
    const secret = source.lookup(name);
    if (rule.feedOnly && secret?.origin === "server") {
      throw new PluginError(
        `"${where.join(".")}" sends its secret to a host this feed's config chooses, so it takes only a feed secret: add ${name} to the feed's secrets.`,
        { code: "FEED_SECRET_REQUIRED" },
      );
    }
    if (!secret && rule.optional) return UNSET;
    if (!secret) {
      throw new PluginError(
        `The variable ${name} is not set on this server, so "${where.join(".")}" cannot be filled. Set ${name} (or a feed secret named ${name}) and retry.`,
        { code: "MISSING_SECRET" },
      );
    }
    return secret.value;
  }
  const [head, ...rest] = path;
  if (head === "*") {
    return Array.isArray(value)
      ? value.map((item, i) => fill(item, rest, source, [...where, String(i)], rule))
      : value;
  }
  if (!value || typeof value !== "object" || !Object.hasOwn(value, head)) return value;
  const filled = fill((value as Record<string, unknown>)[head], rest, source, [...where, head], rule);
  if (filled === UNSET) {
    const { [head]: _unset, ...others } = value as Record<string, unknown>;
    return others;
  }
  return { ...(value as object), [head]: filled };
}

/**
 * A copy of `config` with each secret field's `{{NAME}}` replaced by its value. Only fields the plugin's schema
 * marks secret are filled, so a placeholder elsewhere (a URL, a message) can never carry a server secret out. An
 * optional field whose variable is not set is left out (the plugin decides whether it needs it); a required one
 * fails the step, naming the variable.
 * The stored config is never changed; the filled copy lives only for the step's call.
 */
export function hydrateSecrets<T>(config: T, schema: z.ZodType, source: SecretSource): T {
  let filled: unknown = config;
  for (const { path, feedOnly, optional } of secretFields(schema)) {
    filled = fill(filled, path ? path.split(".") : [], source, [], { feedOnly, optional });
  }
  return filled as T;
}

/** The placeholder names a config's secret fields use. */
export function placeholdersIn(config: unknown, schema: z.ZodType): string[] {
  const names = new Set<string>();
  const collect = (value: unknown, path: string[]) => {
    if (path.length === 0) {
      const name = placeholderName(value);
      if (name) names.add(name);
      return;
    }
    const [head, ...rest] = path;
    if (head === "*") {
      if (Array.isArray(value)) for (const item of value) collect(item, rest);
      return;
    }
    if (value && typeof value === "object" && Object.hasOwn(value, head)) {
      collect((value as Record<string, unknown>)[head], rest);
    }
  };
  for (const path of secretPaths(schema)) collect(config, path ? path.split(".") : []);
  return [...names];
}
