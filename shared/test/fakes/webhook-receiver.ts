import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, with whether each configured secret verified it. */
export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** The parsed payload when a secret verified the signature (`standardwebhooks` `verify`). */
  payload: unknown;
  /** Which of the receiver's secrets verified it. */
  verifiedWith: string[];
  /** The status the receiver answered. */
  status: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Secrets to verify with (any number: a rotation test holds the old and the new). */
  secrets: string[];
  /** Decides each answer (default 204); the nth request is `index`. */
  respond: (index: number) => number | Promise<number>;
  /** Resolves once `count` requests arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * A local HTTP webhook receiver for tests that verifies every request with the
 * `standardwebhooks` package, as a real receiver would.
 */
export async function startWebhookReceiver(options: { port?: number } = {}): Promise<WebhookReceiver> {
  const waiters: { count: number; resolve: () => void }[] = [];
  let server: Server;
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    secrets: [],
    respond: () => 204,
    async waitFor(count, timeoutMs = 20_000) {
      if (receiver.received.length >= count) return receiver.received;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} webhook requests, got ${receiver.received.length}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
      return receiver.received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
    );
    const verifiedWith: string[] = [];
    let payload: unknown;
    for (const secret of receiver.secrets) {
      try {
        payload = new Webhook(secret).verify(body, headers);
        verifiedWith.push(secret);
      } catch {}
    }
    const status = await receiver.respond(receiver.received.length);
    receiver.received.push({ headers, body, payload, verifiedWith, status });
    res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
    for (const w of [...waiters]) {
      if (receiver.received.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
