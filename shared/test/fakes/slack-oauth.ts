import { randomBytes } from 'node:crypto';
import type { FakeResponse, RecordedRequest } from './fake-server.ts';
import { AuthorizationCodes } from './meta-graph.ts';

/** What the install needs of the fake workspace. */
export interface SlackApp {
  clientId: string;
  clientSecret: string;
  team: { id: string; name: string };
  botUserId: string;
  issueToken(options: { scopes?: string[]; expiresInMs?: number }): string;
}

/**
 * Slack's OAuth v2 install as the fake serves it: the consent page (`/oauth/v2/authorize`,
 * approving at once unless `consent` is "deny"), and `oauth.v2.access` exchanging a code once
 * (client credentials in the form or HTTP Basic) or, with token rotation on, a refresh token once.
 */
export class SlackInstalls {
  /** Installs hand out rotating tokens (refresh_token, 12 h expiry) when set. */
  tokenRotation = false;
  consent: 'approve' | 'deny' = 'approve';
  readonly #app: SlackApp;
  readonly #refreshTokens = new Map<string, string[]>();
  readonly #codes = new AuthorizationCodes<{ redirectUri: string; scopes: string[] }>();

  constructor(app: SlackApp) {
    this.#app = app;
  }

  authorize(request: RecordedRequest): FakeResponse {
    const q = request.query;
    if (q.get('client_id') !== this.#app.clientId)
      return { status: 400, text: 'Invalid client_id parameter' };
    const redirectUri = q.get('redirect_uri');
    if (!redirectUri) return { status: 400, text: 'redirect_uri is required' };
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const scopes = (q.get('scope') ?? '').split(',').filter(Boolean);
    if (this.consent === 'deny') {
      back.searchParams.set('error', 'access_denied');
    } else if (!scopes.includes('chat:write')) {
      back.searchParams.set('error', 'invalid_scope');
    } else {
      const code = `${digits()}.${randomBytes(24).toString('hex')}`;
      this.#codes.issue(code, { redirectUri, scopes });
      back.searchParams.set('code', code);
    }
    return { status: 302, headers: { location: back.toString() } };
  }

  access(request: RecordedRequest, params: Record<string, string>): FakeResponse {
    const basic = String(request.headers.authorization ?? '');
    const [id, secret] = basic.startsWith('Basic ')
      ? Buffer.from(basic.slice(6), 'base64').toString().split(':')
      : [params.client_id, params.client_secret];
    if (id !== this.#app.clientId) return fail('invalid_client_id');
    if (secret !== this.#app.clientSecret) return fail('bad_client_secret');
    if (params.grant_type === 'refresh_token') {
      const scopes = this.#refreshTokens.get(params.refresh_token ?? '');
      if (!scopes) return fail('invalid_refresh_token');
      this.#refreshTokens.delete(params.refresh_token!);
      return ok(this.#grant(scopes, true));
    }
    const redeemed = this.#codes.redeem(params.code, params.redirect_uri);
    if ('problem' in redeemed)
      return fail(redeemed.problem === 'redirect_mismatch' ? 'bad_redirect_uri' : 'invalid_code');
    return ok(this.#grant(redeemed.grant.scopes, this.tokenRotation));
  }

  #grant(scopes: string[], rotating: boolean): Record<string, unknown> {
    const lifetimeMs = 12 * 3_600_000;
    const token = this.#app.issueToken({ scopes, ...(rotating ? { expiresInMs: lifetimeMs } : {}) });
    const refresh = `xoxe-1-${randomBytes(24).toString('hex')}`;
    if (rotating) this.#refreshTokens.set(refresh, scopes);
    return {
      access_token: token,
      token_type: 'bot',
      scope: scopes.join(','),
      bot_user_id: this.#app.botUserId,
      app_id: 'A0FAKEAPP1',
      team: { name: this.#app.team.name, id: this.#app.team.id },
      enterprise: null,
      is_enterprise_install: false,
      authed_user: { id: 'U0INSTALLER' },
      ...(rotating ? { refresh_token: refresh, expires_in: lifetimeMs / 1000 } : {}),
    };
  }
}

const digits = (): string => String(Math.floor(Math.random() * 1e12)).padStart(12, '0');

function ok(body: Record<string, unknown>): FakeResponse {
  return { json: { ok: true, ...body } };
}

function fail(error: string): FakeResponse {
  return { json: { ok: false, error } };
}
