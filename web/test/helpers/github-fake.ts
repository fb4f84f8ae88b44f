import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface GitHubProfile {
  id: number;
  login: string;
  name?: string;
  /** Addresses as GET /user/emails lists them. */
  emails: { email: string; primary?: boolean; verified: boolean }[];
  /** A profile text of this many bytes in GET /user's answer (a reply past the app's size cap). */
  bioBytes?: number;
}

/**
 * A faithful-enough GitHub OAuth app server (as GitHub documents it, and as GitHub Enterprise
 * Server lays it out under one base URL): `POST /login/oauth/access_token` exchanges a code for a
 * bearer token (JSON when asked with `Accept: application/json`), `GET /api/v3/user` and
 * `GET /api/v3/user/emails` describe the user. The authorize step is the user's browser at GitHub:
 * tests play it by minting a code for a profile with `approve`.
 */
export class FakeGitHub {
  readonly clientId = 'fake-github-client';
  readonly clientSecret = 'fake-github-secret-0123456789';
  #server: Server | undefined;
  #codes = new Map<string, { profile: GitHubProfile; redirectUri: string }>();
  #tokens = new Map<string, GitHubProfile>();
  url = '';

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      this.#handle(req).then(
        ({ status, body }) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        },
        () => {
          res.writeHead(500).end();
        },
      );
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as { port: number };
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  /** The user approves at GitHub: the code GitHub would append to `redirectUri`. */
  approve(profile: GitHubProfile, redirectUri: string): string {
    const code = randomBytes(10).toString('hex');
    this.#codes.set(code, { profile, redirectUri });
    return code;
  }

  async #handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      let text = '';
      for await (const chunk of req) text += chunk;
      const form = new URLSearchParams(text);
      const basic = req.headers.authorization?.replace(/^Basic\s+/i, '');
      const [id, secret] = basic
        ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent)
        : [form.get('client_id'), form.get('client_secret')];
      if (id !== this.clientId || secret !== this.clientSecret)
        return { status: 401, body: { error: 'incorrect_client_credentials' } };
      const grant = this.#codes.get(form.get('code') ?? '');
      this.#codes.delete(form.get('code') ?? '');
      if (!grant || grant.redirectUri !== form.get('redirect_uri'))
        return { status: 200, body: { error: 'bad_verification_code' } };
      const token = `gho_${randomBytes(12).toString('hex')}`;
      this.#tokens.set(token, grant.profile);
      return {
        status: 200,
        body: { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' },
      };
    }
    const profile = this.#tokens.get(req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '');
    if (!profile) return { status: 401, body: { message: 'Bad credentials' } };
    if (req.method === 'GET' && url.pathname === '/api/v3/user') {
      const publicEmail = profile.emails.find((e) => e.primary)?.email ?? null;
      return {
        status: 200,
        body: {
          id: profile.id,
          login: profile.login,
          name: profile.name ?? null,
          email: publicEmail,
          ...(profile.bioBytes ? { bio: 'x'.repeat(profile.bioBytes) } : {}),
        },
      };
    }
    if (req.method === 'GET' && url.pathname === '/api/v3/user/emails') {
      return { status: 200, body: profile.emails.map((e) => ({ primary: false, visibility: null, ...e })) };
    }
    return { status: 404, body: { message: 'Not Found' } };
  }
}
