/**
 * Email benchmark (issue 34): one digest of 50 items to 10,000 confirmed subscribers, from the issue queued by the
 * distributor to every mail handed to a relay on 127.0.0.1 (smtp-server, accepting and counting, not parsing),
 * through the delivery passes the workers run. Reports the time to render the digest, to queue its deliveries and to
 * hand them all over, the mails per second, and the process's peak memory.
 * Usage: npm run bench:email (env: BENCH_DRIVERS=pglite|postgres, BENCH_SUBSCRIBERS, BENCH_BATCH)
 */
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { feeds } from "../apps/server/src/db/schema.ts";
import { queryRows } from "../apps/server/src/db/sql.ts";
import { deliverPending, queueIssue } from "../apps/server/src/email/delivery.ts";
import { createMailer } from "../apps/server/src/email/mailer.ts";
import { renderIssueMail } from "../apps/server/src/email/template.ts";
import { type Driver, openFreshDatabase, postgresReachable } from "./db.ts";

const env = process.env;
const SUBSCRIBERS = Number(env.BENCH_SUBSCRIBERS ?? 10_000);
const BATCH = Number(env.BENCH_BATCH ?? 500);
const DRIVERS = (env.BENCH_DRIVERS ?? "pglite,postgres").split(",").map((d) => d.trim()) as Driver[];
const FEED_ID = "benchletter";

const log = (message: string) => process.stdout.write(`${message}\n`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** A relay that takes every mail and counts it. */
async function startRelay() {
  let received = 0;
  let bytes = 0;
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    maxClients: 50,
    onData(stream, _session, callback) {
      stream.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      stream.on("end", () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received: () => received,
    bytes: () => bytes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function run(driver: Driver) {
  const { handle, dispose } = await openFreshDatabase(driver, "bench_email");
  const relay = await startRelay();
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 50);
  try {
    await handle.migrate();
    const db = handle.db;
    await db
      .insert(feeds)
      .values({ id: FEED_ID, name: "Bench Letter", config: { id: FEED_ID, name: "Bench Letter" } });
    await db.execute(
      sql`insert into email_subscribers (id, feed_id, address, mode, status, confirmed_at)
        select gen_random_uuid()::text, ${FEED_ID}, 'reader' || n || '@example.org', 'digest', 'confirmed', now()
        from generate_series(1, ${SUBSCRIBERS}) n`,
    );
    const renderStart = performance.now();
    const mail = await renderIssueMail({
      subject: "Bench Letter: This week",
      feedName: "Bench Letter",
      feedUrl: "https://curate.example/feed/benchletter/content",
      intro: null,
      heading: "This week",
      entries: Array.from({ length: 50 }, (_, i) => ({
        title: `Item ${i + 1}: a headline of a curated post`,
        body: "A paragraph of the post's text, as the feed's transforms wrote it, long enough to look like one. ".repeat(
          3,
        ),
        link: `https://example.org/posts/${i + 1}`,
        author: `author${i % 7}`,
        image: null,
      })),
    });
    const renderMs = performance.now() - renderStart;
    const queueStart = performance.now();
    const { recipients } = await queueIssue(db, {
      id: crypto.randomUUID(),
      feedId: FEED_ID,
      jobId: null,
      idempotencyKey: "bench-digest",
      audience: "digest",
      ...mail,
    });
    const queueMs = performance.now() - queueStart;
    const mailer = createMailer(
      { kind: "smtp", host: "127.0.0.1", port: relay.port, secure: false, auth: null },
      "Bench <bench@example.org>",
      {
        pooled: true,
      },
    );
    if (!mailer) throw new Error("no mailer");
    const sendStart = performance.now();
    let passes = 0;
    try {
      for (;;) {
        const pass = await deliverPending({
          db,
          env: {
            PUBLIC_URL: "https://curate.example",
            EMAIL_BATCH_SIZE: BATCH,
            EMAIL_SENDS_PER_SECOND: 100_000,
          },
          mailer,
          logger: pino({ level: "warn" }),
        });
        passes++;
        if (pass.sent + pass.failed + pass.deferred === 0) break;
      }
    } finally {
      mailer.close();
    }
    const sendMs = performance.now() - sendStart;
    const [{ sent }] = await queryRows<{ sent: number }>(
      db,
      sql`select count(*)::int as sent from email_deliveries where status = 'sent'`,
    );
    log(
      `${driver}: ${recipients} recipients; digest rendered in ${renderMs.toFixed(0)} ms (${(mail.html.length / 1024).toFixed(0)} KB HTML); ` +
        `queued in ${queueMs.toFixed(0)} ms; handed to the relay in ${(sendMs / 1000).toFixed(1)} s ` +
        `(${Math.round((relay.received() / sendMs) * 1000)} mails/s, ${passes} passes of ${BATCH}); ` +
        `relay received ${relay.received()} (${mb(relay.bytes())}), ${sent} recorded sent; peak RSS ${mb(peakRss)}`,
    );
    if (relay.received() !== SUBSCRIBERS || sent !== SUBSCRIBERS) {
      throw new Error(`expected ${SUBSCRIBERS} mails, relay got ${relay.received()}, ${sent} recorded`);
    }
  } finally {
    clearInterval(sampler);
    await relay.close();
    await dispose();
  }
}

for (const driver of DRIVERS) {
  if (driver === "postgres" && !(await postgresReachable())) {
    log("postgres: not reachable, skipped");
    continue;
  }
  await run(driver);
}
