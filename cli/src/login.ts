import { spawn } from 'node:child_process';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import { readResponse, Unreachable } from './api.ts';
import { LoginResult } from './responses.ts';

export interface LoginOptions {
  server: string;
  deviceName?: string;
  openBrowser: boolean;
  /** Where the URL and progress are printed (stderr). */
  log: (line: string) => void;
  timeoutMs?: number;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** Opens `url` in the default browser; false when no opener could be started. */
export function openInBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replaceAll('&', '^&')]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page the browser lands on; `text` may quote the callback's query, so it is escaped. */
const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
  `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;line-height:1.5">` +
  `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;

/**
 * The loopback flow: listen on 127.0.0.1 on a free port, send the user to the Scheduler's
 * approval page, wait for the redirect carrying `code` and `state`, then exchange the code with
 * the PKCE verifier for a CLI token.
 */
export async function login(options: LoginOptions): Promise<{ token: string; expiresAt: string }> {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(16).toString('base64url');
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  try {
    const { port } = server.address() as { port: number };
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const authorize = new URL('/api/cli/authorize', `${options.server}/`);
    authorize.search = new URLSearchParams({
      redirect_uri: redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      device_name: options.deviceName ?? `postwave CLI on ${hostname()}`,
    }).toString();
    const callback = waitForCallback(server, state, options.timeoutMs ?? 5 * 60_000);
    const opened = options.openBrowser && (await openInBrowser(authorize.toString()));
    options.log(
      opened
        ? `Opened your browser to approve this device. If it did not open, visit:\n  ${authorize}`
        : `Open this URL in a browser where you are signed in to Postwave, and approve:\n  ${authorize}`,
    );
    options.log('Waiting for approval...');
    const code = await callback;
    let response: Response;
    try {
      response = await fetch(new URL('/api/cli/authorize', `${options.server}/`), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ code, code_verifier: verifier }),
      });
    } catch (error) {
      throw new Unreachable(options.server, error);
    }
    return await readResponse(response, LoginResult);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

function waitForCallback(server: Server, state: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('Timed out waiting for approval in the browser: run postwave login again')),
      timeoutMs,
    );
    timer.unref();
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback') {
        res.writeHead(404).end();
        return;
      }
      const send = (status: number, title: string, text: string) =>
        res
          .writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
          .end(page(title, text));
      if (!sameSecret(url.searchParams.get('state') ?? '', state)) {
        // Not our flow (a stale tab or a forged request): keep waiting for the real one.
        send(400, 'Unexpected request', 'This sign-in link does not belong to the running postwave login.');
        return;
      }
      clearTimeout(timer);
      const error = url.searchParams.get('error');
      const code = url.searchParams.get('code');
      if (error === 'access_denied') {
        send(200, 'Not connected', 'You denied access. You can close this tab.');
        reject(new Error('Access was denied in the browser'));
        return;
      }
      if (error || !code) {
        // Not the person's refusal: the server answered an error (or nothing usable). Say which.
        const description = url.searchParams.get('error_description');
        const what = error ? `${error}${description ? ` (${description})` : ''}` : 'no code in the answer';
        send(
          200,
          'Not connected',
          `The server could not connect this device (${error ?? 'no code'}). Run postwave login again; you can close this tab.`,
        );
        reject(new Error(`Authorization failed: ${what}: run postwave login again`));
        return;
      }
      send(200, 'Postwave CLI connected', 'You can close this tab and return to the terminal.');
      resolve(code);
    });
  });
}
