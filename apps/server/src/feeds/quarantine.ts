import { asc, eq, gt } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "../db/index.ts";
import { feeds, plugins, type SecretFinding } from "../db/schema.ts";
import { findRawSecrets, findRawSecretsInPlugin } from "./secrets.ts";

/** Rows read at a time: one start-up pass over any number of configs holds no more than this many in memory. */
const PAGE_SIZE = 100;
/** Entries the operator's log line names; the counts say how many more there are. */
const LOGGED_ENTRIES = 50;

export interface QuarantinedFeed {
  id: string;
  owner: string | null;
  findings: SecretFinding[];
}

export interface QuarantinedPlugin {
  id: number;
  name: string;
  owner: string | null;
  findings: SecretFinding[];
}

/** Every stored config the scan finds a raw credential in now, and how many rows this pass changed. */
export interface QuarantineReport {
  feeds: QuarantinedFeed[];
  plugins: QuarantinedPlugin[];
  /** Rows newly quarantined or released (the rest already were as the scan finds them). */
  changed: number;
}

const sameFindings = (stored: SecretFinding[] | null, found: SecretFinding[]) =>
  JSON.stringify(stored ?? []) === JSON.stringify(found);

async function scanFeeds(db: Database, report: QuarantineReport) {
  for (let after = ""; ; ) {
    const page = await db
      .select({
        id: feeds.id,
        config: feeds.config,
        createdBy: feeds.createdBy,
        secretFindings: feeds.secretFindings,
      })
      .from(feeds)
      .where(gt(feeds.id, after))
      .orderBy(asc(feeds.id))
      .limit(PAGE_SIZE);
    for (const row of page) {
      const found = findRawSecrets(row.config);
      if (!sameFindings(row.secretFindings, found)) {
        // The config itself is not touched (nor updatedAt): an editor's If-Match stays valid.
        await db
          .update(feeds)
          .set({ secretFindings: found.length ? found : null })
          .where(eq(feeds.id, row.id));
        report.changed++;
      }
      if (found.length) report.feeds.push({ id: row.id, owner: row.createdBy, findings: found });
    }
    if (page.length < PAGE_SIZE) return;
    after = page[page.length - 1].id;
  }
}

async function scanPlugins(db: Database, report: QuarantineReport) {
  for (let after = 0; ; ) {
    const page = await db
      .select()
      .from(plugins)
      .where(gt(plugins.id, after))
      .orderBy(asc(plugins.id))
      .limit(PAGE_SIZE);
    for (const row of page) {
      const found = findRawSecretsInPlugin(row);
      if (!sameFindings(row.secretFindings, found)) {
        await db
          .update(plugins)
          .set({ secretFindings: found.length ? found : null })
          .where(eq(plugins.id, row.id));
        report.changed++;
      }
      if (found.length) {
        report.plugins.push({ id: row.id, name: row.name, owner: row.createdBy, findings: found });
      }
    }
    if (page.length < PAGE_SIZE) return;
    after = page[page.length - 1].id;
  }
}

/**
 * Scans every stored feed config and plugin registration with today's secret scan, a page at a time, and marks
 * those that hold what looks like a raw credential as quarantined (hidden from everyone but their owners, not run)
 * or releases those that no longer do. Idempotent: run at every start-up, and after an import. When any is
 * quarantined the operator is told in one log line which ones and where, never the values, and to rotate them:
 * they were stored, and may have been served, before.
 */
export async function quarantineStoredSecrets(db: Database, logger: Logger): Promise<QuarantineReport> {
  const report: QuarantineReport = { feeds: [], plugins: [], changed: 0 };
  await scanFeeds(db, report);
  await scanPlugins(db, report);
  if (report.feeds.length || report.plugins.length) {
    const paths = (findings: SecretFinding[]) => findings.map((finding) => finding.path);
    logger.warn(
      {
        feeds: report.feeds
          .slice(0, LOGGED_ENTRIES)
          .map((feed) => ({ id: feed.id, owner: feed.owner, paths: paths(feed.findings) })),
        feedCount: report.feeds.length,
        plugins: report.plugins.slice(0, LOGGED_ENTRIES).map((plugin) => ({
          id: plugin.id,
          name: plugin.name,
          owner: plugin.owner,
          paths: paths(plugin.findings),
        })),
        pluginCount: report.plugins.length,
      },
      "stored configs hold what look like raw credentials: rotate them (they were stored and may have been served); " +
        "these feeds and plugins are hidden from everyone but their owners and do not run until saved with {{PLACEHOLDER}}s",
    );
  }
  return report;
}
