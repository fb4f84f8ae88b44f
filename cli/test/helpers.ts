import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../src/cli.ts';

/** A tiny HTTP server on 127.0.0.1 answering with `handle`; records "METHOD /path" of each request. */
export async function tinyServer(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    req.resume();
    req.on('end', () => handle(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export const json = (res: ServerResponse, status: number, body: unknown, type = 'application/json') =>
  res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));

/** Runs `postwave <argv>` in this process against `server` with `token`; answers code and output. */
export async function postwave(argv: string[], server = 'http://127.0.0.1:9', token = 'pw_test') {
  const dir = mkdtempSync(join(tmpdir(), 'pw-cli-run-'));
  let stdout = '';
  let stderr = '';
  try {
    const code = await run(argv, {
      env: { POSTWAVE_URL: server, POSTWAVE_TOKEN: token, POSTWAVE_CONFIG_DIR: dir },
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      progress: undefined,
      readStdin: () => '',
    });
    return { code, stdout, stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
