import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { CaughtMail, CaughtMailSummary, Paged } from "@curate/core";
import { AppError } from "../errors.ts";

/**
 * Reading the development catch-all (decision 0034): the mails mailer.ts wrote into its folder, one JSON file
 * each, named so that the names sort oldest first.
 */

async function mailNames(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith(".json")).sort();
}

async function readMail(dir: string, name: string): Promise<CaughtMail> {
  const mail = JSON.parse(await readFile(join(dir, name), "utf8"));
  return {
    id: mail.id,
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    sentAt: mail.sentAt,
    headers: mail.headers ?? {},
    text: mail.text,
    html: mail.html,
  };
}

/** A page of the caught mails, newest first: only that page's files are read. */
export async function listCaughtMails(
  dir: string,
  { page, limit }: { page: number; limit: number },
): Promise<Paged<CaughtMailSummary>> {
  const names = (await mailNames(dir)).reverse();
  const items = await Promise.all(
    names.slice(page * limit, (page + 1) * limit).map(async (name) => {
      const { id, from, to, subject, sentAt } = await readMail(dir, name);
      return { id, from, to, subject, sentAt };
    }),
  );
  return {
    items,
    pagination: { page, limit, hasNextPage: names.length > (page + 1) * limit, totalCount: names.length },
  };
}

/** One caught mail by its id (the file's name, checked by the route's contract to be nothing but a name). */
export async function caughtMail(dir: string, id: string): Promise<CaughtMail> {
  try {
    return await readMail(dir, `${id}.json`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw AppError.notFound("No caught mail has this id.");
    }
    throw error;
  }
}
