/**
 * Email benchmark (issue 34): one digest of 50 items to 10,000 confirmed subscribers, from the issue queued by the
 * distributor to every mail handed to a relay on 127.0.0.1 (smtp-server, accepting and counting, not parsing),
 * through the delivery passes the workers run. Reports the time to render the digest, to queue its deliveries and to
 * hand them all over, the mails per second, and peak memory: the sending process's (RSS and heap) and, apart, the
 * relay's, which runs in a child process (bench/email-relay.ts).
 * Usage: npm run bench:email (env: BENCH_DRIVERS=pglite|postgres, BENCH_SUBSCRIBERS=10000 or a list such as
 * 1000,4000, BENCH_BATCH)
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { sql } from "drizzle-orm";
import pino from "pino";
import { feeds } from "../apps/server/src/db/schema.ts";
import { queryRows } from "../apps/server/src/db/sql.ts";
import { deliverPending, queueIssue } from "../apps/server/src/email/delivery.ts";
import { createMailer } from "../apps/server/src/email/mailer.ts";
import { renderIssueMail } from "../apps/server/src/email/template.ts";
import { type Driver, openFreshDatabase, postgresReachable } from "./db.ts";

const env = process.env;
/** One run per size, side by side: "1000,4000" shows whether the sender's memory grows with the readers. */
const SUBSCRIBERS = (env.BENCH_SUBSCRIBERS ?? "10000").split(",").map((n) => Number(n.trim()));
const BATCH = Number(env.BENCH_BATCH ?? 500);
const DRIVERS = (env.BENCH_DRIVERS ?? "pglite,postgres").split(",").map((d) => d.trim()) as Driver[];
const FEED_ID = "benchletter";

const log = (message: string) => process.stdout.write(`${message}\n`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

interface RelayReport {
  received: number;
  bytes: number;
  peakRss: number;
}

/** The relay (bench/email-relay.ts) in a child process: its memory is its own, not the sender's. */
async function startRelay() {
  const child = fork(fileURLToPath(new URL("./email-relay.ts", import.meta.url)), {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (message) => resolve((message as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`the relay exited (${code}) before it listened`)));
  });
  return {
    port,
    report: () =>
      new Promise<RelayReport>((resolve) => {
        child.once("message", (message) => resolve(message as RelayReport));
        child.send("report");
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.send("close");
      }),
  };
}

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/**
 * The heap the sender still holds after a full collection: what it keeps, where the sampled peak also counts
 * garbage not collected yet (each mail is a new ~100 KB string).
 */
function liveHeap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** The sender's peaks, sampled: RSS (with PGlite, the database's memory is in it too) and the JavaScript heap. */
function sampleMemory() {
  const peak = { rss: 0, heap: 0 };
  const sample = () => {
    const usage = process.memoryUsage();
    peak.rss = Math.max(peak.rss, usage.rss);
    peak.heap = Math.max(peak.heap, usage.heapUsed);
  };
  sample();
  const timer = setInterval(sample, 50);
  return {
    peak,
    stop() {
      clearInterval(timer);
      sample();
    },
  };
}

async function run(driver: Driver, subscribers: number) {
  const { handle, dispose } = await openFreshDatabase(driver, "bench_email");
  const relay = await startRelay();
  const memory = sampleMemory();
  try {
    await handle.migrate();
    const db = handle.db;
    await db
      .insert(feeds)
      .values({ id: FEED_ID, name: "Bench Letter", config: { id: FEED_ID, name: "Bench Letter" } });
    await db.execute(
      sql`insert into email_subscribers (id, feed_id, address, mode, status, confirmed_at)
        select gen_random_uuid()::text, ${FEED_ID}, 'reader' || n || '@example.org', 'digest', 'confirmed', now()
        from generate_series(1, ${subscribers}) n`,
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
    const heapBefore = liveHeap();
    let heapRetained = heapBefore;
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
        heapRetained = Math.max(heapRetained, liveHeap());
        if (pass.sent + pass.failed + pass.deferred === 0) break;
      }
    } finally {
      mailer.close();
    }
    const sendMs = performance.now() - sendStart;
    memory.stop();
    const received = await relay.report();
    const [{ sent }] = await queryRows<{ sent: number }>(
      db,
      sql`select count(*)::int as sent from email_deliveries where status = 'sent'`,
    );
    log(
      `${driver}: ${recipients} recipients; digest rendered in ${renderMs.toFixed(0)} ms (${(mail.html.length / 1024).toFixed(0)} KB HTML); ` +
        `queued in ${queueMs.toFixed(0)} ms; handed to the relay in ${(sendMs / 1000).toFixed(1)} s ` +
        `(${Math.round((received.received / sendMs) * 1000)} mails/s, ${passes} passes of ${BATCH}); ` +
        `relay received ${received.received} (${mb(received.bytes)}), ${sent} recorded sent; ` +
        `server peak RSS ${mb(memory.peak.rss)}, peak heap ${mb(memory.peak.heap)}, live heap ${mb(heapBefore)} before ` +
        `sending and at most ${mb(heapRetained)} between passes; relay process peak RSS ${mb(received.peakRss)}`,
    );
    if (received.received !== subscribers || sent !== subscribers) {
      throw new Error(`expected ${subscribers} mails, relay got ${received.received}, ${sent} recorded`);
    }
  } finally {
    memory.stop();
    await relay.close();
    await dispose();
  }
}

for (const driver of DRIVERS) {
  if (driver === "postgres" && !(await postgresReachable())) {
    log("postgres: not reachable, skipped");
    continue;
  }
  for (const subscribers of SUBSCRIBERS) await run(driver, subscribers);
}
