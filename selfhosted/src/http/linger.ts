import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long a refused upload's body is read and discarded before its connection is closed. */
const lingerMs = 5_000;

/**
 * For a request refused before its body is read (an upload declared too large): the answer goes
 * out at once, then the body still arriving is read and discarded for up to `lingerMs` before the
 * connection is closed ("lingering close", as nginx does). Closing at once, with bytes unread,
 * makes the kernel reset the connection, and a client still sending sees the reset (EPIPE) instead
 * of the 413. A body that ends within the time leaves the connection open for the next request.
 */
export function lingerAfterRefusal(req: IncomingMessage, res: ServerResponse): void {
  res.once('finish', () => {
    if (req.complete) return;
    const timer = setTimeout(() => req.socket.destroy(), lingerMs);
    timer.unref();
    req.once('end', () => clearTimeout(timer));
    req.resume();
  });
}
