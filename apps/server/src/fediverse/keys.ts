import type { webcrypto } from "node:crypto";
import { importJwk } from "@fedify/fedify";
import { eq } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { fediverseActors } from "../db/schema.ts";

type Jwk = Parameters<typeof importJwk>[0];

/** Reads a stored actor key pair back as the CryptoKeys Fedify signs with. */
export async function actorKeys(
  db: Database,
  feedId: string,
): Promise<{ publicKey: webcrypto.CryptoKey; privateKey: webcrypto.CryptoKey } | null> {
  const [row] = await db
    .select({ publicKey: fediverseActors.publicKey, privateKey: fediverseActors.privateKey })
    .from(fediverseActors)
    .where(eq(fediverseActors.feedId, feedId));
  if (!row) return null;
  return {
    publicKey: await importJwk(row.publicKey as Jwk, "public"),
    privateKey: await importJwk(row.privateKey as Jwk, "private"),
  };
}

/** The id of an actor's (first, RSA) key, as Fedify names it in the actor document. */
export function mainKeyId(actorUri: URL): URL {
  return new URL("#main-key", actorUri);
}
