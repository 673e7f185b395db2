/**
 * The receiving relay of bench:email, in a process of its own so the sender's memory is measured without it: an
 * smtp-server on 127.0.0.1 that accepts and counts mails (not parsing them). Tells its parent the port once it
 * listens; answers "report" with the mails and bytes received and its own peak RSS.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

let received = 0;
let bytes = 0;
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

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

server.listen(0, "127.0.0.1", () => {
  process.send?.({ port: (server.server.address() as AddressInfo).port });
});

process.on("message", (message) => {
  if (message === "report") {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    process.send?.({ received, bytes, peakRss });
  } else if (message === "close") {
    clearInterval(sampler);
    server.close(() => process.disconnect());
  }
});
