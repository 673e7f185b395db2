import type { Server } from "node:http";
import type { Socket } from "node:net";
import { AppError } from "../errors.ts";
import { errorBody } from "./envelope.ts";

/**
 * How long an idle keep-alive connection stays open. Node's 5 s default is shorter than the idle timeouts of the
 * proxies and load balancers usually in front of it (60 s), and than a busy client's gap between requests: a
 * request written just as the server drops the idle socket fails with ECONNRESET and, being a POST, is not retried.
 */
const KEEP_ALIVE_MS = 65_000;

/**
 * The Node server as the app wants it: idle connections kept longer than whatever sits in front of it, and
 * requests Node's HTTP parser refuses before the app sees them (an address or headers larger than Node accepts, a
 * broken request line) answered in the envelope too, instead of Node's bare status line.
 */
export function prepareNodeServer(nodeServer: unknown) {
  const server = nodeServer as Server;
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Node requires the headers timeout to outlast the keep-alive timeout, or an idle socket can be cut mid-request.
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error as { code?: string }).code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const appError =
      error.code === "HPE_HEADER_OVERFLOW"
        ? new AppError("HEADERS_TOO_LARGE", "The address or headers of the request are too large.")
        : AppError.validation("The request could not be read.");
    const body = JSON.stringify(errorBody(appError));
    socket.end(
      `HTTP/1.1 ${appError.status} ${appError.status === 431 ? "Request Header Fields Too Large" : "Bad Request"}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * Stops taking connections and resolves once the open ones are gone. A connection the client never finished reading
 * from would otherwise hold the stop for the whole keep-alive time; requests still running get `graceMs` to finish.
 */
export function closeNodeServer(nodeServer: unknown, graceMs = 10_000): Promise<void> {
  const server = nodeServer as Server;
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
