import { createServer, type Server } from 'node:http';

/**
 * The smallest X API the analytics benches need, answering at once: `GET /2/tweets?ids=` with
 * `public_metrics` for any id (figures derived from the id, so every answer differs) and
 * `GET /2/users/me` with followers. Counts the calls it answered.
 */
export async function startZeroLatencyX(): Promise<{
  url: string;
  calls: () => number;
  close(): Promise<void>;
}> {
  let calls = 0;
  const server: Server = createServer((req, res) => {
    calls++;
    const url = new URL(req.url ?? '/', 'http://x');
    let body: unknown;
    if (url.pathname === '/2/tweets') {
      const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
      body = {
        data: ids.map((id) => {
          const n = Number(id.slice(-4)) || 1;
          return {
            id,
            text: 'bench',
            public_metrics: {
              retweet_count: n % 7,
              reply_count: n % 5,
              like_count: n % 97,
              quote_count: n % 3,
              bookmark_count: n % 11,
              impression_count: n * 3,
            },
          };
        }),
      };
    } else if (url.pathname === '/2/users/me') {
      body = { data: { id: '1', name: 'bench', username: 'bench', public_metrics: { followers_count: 42 } } };
    } else {
      res.writeHead(404).end();
      return;
    }
    const text = JSON.stringify(body);
    res
      .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
      .end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
