import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO), lower-cased. */
  to: string[];
  parsed: ParsedMail;
  raw: string;
}

/**
 * A mail relay on 127.0.0.1 speaking real SMTP (the `smtp-server` package), without TLS or authentication, that
 * parses every mail it accepts with `mailparser`. Recipients in `refuse` are refused at RCPT TO with a 550 (a
 * permanent failure); `deferNext` answers the next RCPT with a 451 (try again later).
 */
export async function startFakeSmtp() {
  const mails: ReceivedMail[] = [];
  const refuse = new Set<string>();
  let deferred = 0;
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // Tests and the bench send thousands of mails through a few pooled connections.
    maxClients: 50,
    onRcptTo(address, _session, callback) {
      if (deferred > 0) {
        deferred--;
        const error = Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 });
        return callback(error);
      }
      if (refuse.has(address.address.toLowerCase())) {
        const error = Object.assign(new Error(`No such user ${address.address}`), { responseCode: 550 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw)
          .then((parsed) => {
            mails.push({
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
              parsed,
              raw,
            });
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuse,
    /** The next `count` recipients are told to try again later (451). */
    deferNext(count: number) {
      deferred = count;
    },
    /** Mails to this address, oldest first. */
    to(address: string) {
      return mails.filter((mail) => mail.to.includes(address.toLowerCase()));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeSmtp = Awaited<ReturnType<typeof startFakeSmtp>>;
