import http from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser refuses before express sees them: a request line or headers over
 * `--max-http-header-size` (16 KB), an unknown method, a malformed request line, a request not read in
 * time. Node answers those itself with an empty body; we answer as every other /api/v4 error does, with
 * a JSON body in GitLab's unknown-route style (`{"error":"400 Bad Request"}`), and close the connection.
 * Node's http docs, event 'clientError' (https://nodejs.org/docs/latest-v20.x/api/http.html#event-clienterror):
 * there is no request or response object, so the response is written to the socket by hand, and a
 * handler replaces Node's default answer, so it must also close the socket.
 */

/** Node's parser and server error codes → status; anything else is 400 (the default answer's statuses). */
const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408, // server.headersTimeout / requestTimeout
};

/** The socket's response in flight, which Node keeps on it (its default answer checks the same). */
type ServerSocket = Duplex & { _httpMessage?: http.ServerResponse | null };

/** The whole HTTP/1.1 response for `status`: JSON body, its length, and the connection closed. */
export function clientErrorResponse(status: number): string {
  const body = JSON.stringify({ error: `${status} ${http.STATUS_CODES[status]}` });
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

function onClientError(err: Error & { code?: string }, socket: ServerSocket): void {
  // The client is gone or the socket is already closing (also when the parser reports further errors
  // after our answer: end() made it unwritable): nobody to answer, and never a second response.
  if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  // A response already being written on this connection (pipelining): our bytes would land inside it.
  const inFlight = socket._httpMessage;
  if (inFlight && inFlight.headersSent && !inFlight.writableEnded) return void socket.destroy();
  const status = (err.code && STATUS_BY_CODE[err.code]) || 400;
  socket.end(clientErrorResponse(status), () => socket.destroy());
  // A client that reads nothing could keep the answer unsent (and the socket open) for ever.
  setTimeout(() => socket.destroy(), 5000).unref();
}

/** Installs the JSON answer on `server` (each worker's server under the supervisor: they parse the requests). */
export function answerClientErrors(server: http.Server): void {
  server.on('clientError', onClientError);
}
