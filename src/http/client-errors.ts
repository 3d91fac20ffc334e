/**
 * Requests Node's HTTP parser refuses before any handler sees them: headers (or a URL) past its
 * 16 KiB limit, a malformed request line, a header or body not received in time. Node's own
 * answer is a status line with no body; every other refusal of this service is JSON with a
 * `detail` (src/rest/errors.ts), so clients, and the request fuzzing test, get that here too.
 */
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';

/** The status Node itself would send for a parser error code (its default `clientError` handling). */
function statusOf(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/** Answers parser-level refusals as `{"detail": "<reason>"}` and closes the socket, as Node does. */
export function answerClientErrorsWithDetail(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // a response already under way, or a peer gone: nothing can be said any more
    const responding = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === 'ECONNRESET' || !socket.writable || responding) {
      socket.destroy();
      return;
    }
    const status = statusOf(error.code);
    const body = JSON.stringify({ detail: STATUS_CODES[status] });
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}
