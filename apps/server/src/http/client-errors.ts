import type { Server } from "node:http";
import type { Socket } from "node:net";
import { AppError } from "../errors.ts";
import { errorBody } from "./envelope.ts";

/**
 * Requests Node's HTTP parser refuses before the app sees them (an address or headers larger than Node accepts,
 * a broken request line) get the envelope too, instead of Node's bare status line.
 */
export function answerClientErrorsInEnvelope(server: unknown) {
  (server as Server).on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
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
