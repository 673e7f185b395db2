import type { webcrypto } from "node:crypto";
import {
  createFederation,
  type Federation,
  generateCryptoKeyPair,
  type KvStore,
  signRequest,
} from "@fedify/fedify";
import {
  Accept,
  type Activity,
  type Object as APObject,
  Create,
  Delete,
  Follow,
  Person,
  type Undo,
  Update,
} from "@fedify/vocab";
import pino from "pino";
import { guardedAuthenticatedLoaderFactory, guardedDocumentLoader } from "../../src/fediverse/loader.ts";

/**
 * A minimal fediverse reader made with Fedify, standing for a Mastodon user on another server: people at
 * `/reader/{name}` with keys of their own, who follow and unfollow, and an inbox that keeps every activity Fedify
 * let through — only after checking its HTTP signature against the sender's key, fetched through the guard.
 */
export interface FediverseReader {
  federation: Federation<void>;
  received: APObject[];
  /** Sends a Follow (or what `make` builds) from `name` to the actor at `actorUrl`, signed. */
  send(
    origin: string,
    name: string,
    actorUrl: string,
    make: (actor: URL, object: URL) => Follow | Undo,
  ): Promise<void>;
  follow(origin: string, name: string, actorUrl: string): Promise<Follow>;
  /** Posts `activity` from `name` to `inbox`, signed as Mastodon signs, once, and answers the inbox's response. */
  post(origin: string, name: string, inbox: string, activity: Activity): Promise<Response>;
}

export function createFediverseReader(kv: KvStore): FediverseReader {
  const received: APObject[] = [];
  const keys = new Map<string, webcrypto.CryptoKeyPair>();
  const keysOf = async (identifier: string) => {
    let pair = keys.get(identifier);
    if (!pair) {
      pair = (await generateCryptoKeyPair("RSASSA-PKCS1-v1_5")) as webcrypto.CryptoKeyPair;
      keys.set(identifier, pair);
    }
    return pair;
  };
  // The reader is another server of this machine: the loopback allowance, as FEDIVERSE_ALLOW_LOOPBACK gives.
  const settings = { allowedHosts: ["127.0.0.1", "localhost"], logger: pino({ level: "silent" }) };
  const loader = guardedDocumentLoader(settings);
  const federation = createFederation<void>({
    kv,
    documentLoaderFactory: () => loader,
    contextLoaderFactory: () => loader,
    authenticatedDocumentLoaderFactory: guardedAuthenticatedLoaderFactory(settings),
  });
  federation
    .setActorDispatcher("/reader/{identifier}", async (ctx, identifier) => {
      const pairs = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        inbox: ctx.getInboxUri(identifier),
        publicKey: pairs[0].cryptographicKey,
        assertionMethods: pairs.map((pair) => pair.multikey),
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => [await keysOf(identifier)]);
  const keep = async (_ctx: unknown, activity: APObject) => {
    received.push(activity);
  };
  federation
    .setInboxListeners("/reader/{identifier}/inbox")
    .on(Accept, keep)
    .on(Create, keep)
    .on(Update, keep)
    .on(Delete, keep);

  async function send(
    origin: string,
    name: string,
    actorUrl: string,
    make: (actor: URL, object: URL) => Follow | Undo,
  ) {
    const ctx = federation.createContext(new URL(origin));
    const recipient = await ctx.lookupObject(actorUrl);
    if (!(recipient instanceof Object) || !("inboxId" in recipient))
      throw new Error(`${actorUrl} did not load`);
    await ctx.sendActivity(
      { identifier: name },
      recipient as Person,
      make(ctx.getActorUri(name), new URL(actorUrl)),
      {
        immediate: true,
      },
    );
  }

  async function post(origin: string, name: string, inbox: string, activity: Activity) {
    const ctx = federation.createContext(new URL(origin));
    const [key] = await ctx.getActorKeyPairs(name);
    const body = JSON.stringify(await activity.toJsonLd({ contextLoader: ctx.contextLoader }));
    const request = new Request(inbox, {
      method: "POST",
      headers: { "Content-Type": "application/activity+json" },
      body,
    });
    const { privateKey } = await keysOf(name);
    const signed = await signRequest(request, privateKey, key.keyId, {
      spec: "draft-cavage-http-signatures-12",
    });
    return fetch(inbox, { method: "POST", headers: signed.headers, body });
  }

  return {
    federation,
    received,
    send,
    post,
    async follow(origin, name, actorUrl) {
      let sent: Follow | null = null;
      await send(origin, name, actorUrl, (actor, object) => {
        sent = new Follow({ id: new URL(`${actor.href}#follows/${crypto.randomUUID()}`), actor, object });
        return sent;
      });
      return sent as unknown as Follow;
    },
  };
}
