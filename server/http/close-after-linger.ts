import type { Socket } from 'node:net';
import type { ServerResponse } from 'node:http';

/** How long, and how many more bytes, a refused client gets to read its answer before the socket is cut. */
const LINGER_MS = 5_000;
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * Closes a connection whose request body was left unread, once its answer (a 413, say) is written.
 * Destroying the socket at once reset it while the client was still sending: its next write failed with
 * EPIPE/ECONNRESET before it had read the answer, so the client saw no 413 at all (a CI run of
 * body-limit-close.int got an empty reply). Sending FIN first lets the client read the answer and the end
 * of the stream; the socket is destroyed after a bounded linger, so a client streaming without end is
 * still cut off after at most LINGER_BYTES more (issue 26 item 7).
 */
function closeAfterLinger(socket: Socket): void {
  if (socket.destroyed) return;
  let seen = 0;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > LINGER_BYTES) cut();
  });
  socket.end();
}

/** Closes the connection after a bounded linger once `res`, the answer to a request whose body was left unread, is written. */
export function closeWhenAnswered(res: ServerResponse, socket: Socket): void {
  res.once('finish', () => closeAfterLinger(socket));
}
