import type { Database } from "../db/index.ts";

export interface SeedSummary {
  feeds: number;
  submissions: number;
  curators: number;
}

export interface SeedOptions {
  /** Folder served at /uploads/ where generated feed images are written. */
  uploadsDir: string;
  /** Absolute base URL of this deployment, for image URLs. */
  publicUrl: string;
}

/** Placeholder until the demo generator lands: seeds nothing. */
export async function seedDemoData(_db: Database, _options: SeedOptions): Promise<SeedSummary> {
  return { feeds: 0, submissions: 0, curators: 0 };
}
