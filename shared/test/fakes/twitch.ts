import { randomBytes, randomUUID } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

/*
 * A fake of Twitch as documented at https://dev.twitch.tv/docs: id.twitch.tv's OAuth
 * (`/oauth2/authorize` consent redirect, `/oauth2/token` for the code and refresh grants with the
 * client id and secret in the form, `/oauth2/validate` with `Authorization: OAuth <token>`,
 * errors `{ status, message }`), and Helix (`/helix/users`, `POST /helix/chat/messages` with
 * `Authorization: Bearer` and a matching `Client-Id`; a message the chat drops answers 200 with
 * `is_sent: false` and a `drop_reason`; errors `{ error, status, message }`; `Ratelimit-Limit`,
 * `Ratelimit-Remaining` and `Ratelimit-Reset` on every answer). Refresh tokens stay usable after a
 * refresh, as Twitch's do, until the user revokes the app.
 */

export interface FakeTwitchUser {
  id: string;
  login: string;
  displayName: string;
}

export interface FakeTwitchChatMessage {
  id: string;
  broadcasterId: string;
  senderId: string;
  text: string;
}

const helixError = (status: number, error: string, message: string): FakeResponse => ({
  status,
  json: { error, status, message },
});
const idError = (status: number, message: string): FakeResponse => ({ status, json: { status, message } });

export class FakeTwitch {
  readonly server = new FakeServer();
  readonly clientId = 'twitch-client-id';
  readonly clientSecret = 'twitch-client-secret';
  readonly user: FakeTwitchUser = { id: '141981764', login: 'alicestreams', displayName: 'AliceStreams' };
  readonly messages: FakeTwitchChatMessage[] = [];
  accessTtlSec = 14_400;
  refreshes = 0;
  /** The next message is dropped with this reason (AutoMod, slow mode, ...). */
  dropNext: { code: string; message: string } | undefined;
  readonly #access = new Map<string, { expires: number; scopes: string[] }>();
  /** refresh token → the scopes it was granted with (a refresh keeps them). */
  readonly #refresh = new Map<string, string[]>();
  readonly #codes = new Map<string, string>();

  get url(): string {
    return this.server.url;
  }

  constructor() {
    this.#routes();
  }

  env(): Record<string, string> {
    return {
      TWITCH_API_URL: `${this.url}/helix`,
      TWITCH_OAUTH_URL: `${this.url}/oauth2`,
      TWITCH_CLIENT_ID: this.clientId,
      TWITCH_CLIENT_SECRET: this.clientSecret,
    };
  }

  /** Credentials as the accounts file holds them. */
  credentials(options: { expiresInSeconds?: number; scopes?: string[]; withSecret?: boolean } = {}) {
    const tokens = this.#issue(options.scopes, options.expiresInSeconds);
    return {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      clientId: this.clientId,
      ...(options.withSecret === false ? {} : { clientSecret: this.clientSecret }),
      expiresAt: new Date(Date.now() + tokens.expires_in * 1000).toISOString(),
    };
  }

  revoke(): void {
    this.#access.clear();
    this.#refresh.clear();
  }

  /** The next `times` Helix calls answer 429, the bucket refilling in `resetSeconds`. */
  rateLimit(options: { times?: number; resetSeconds?: number } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      path: /^\/helix\//,
      ...helixError(429, 'Too Many Requests', 'Too Many Requests'),
      headers: {
        'ratelimit-limit': '800',
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(Math.floor(Date.now() / 1000) + (options.resetSeconds ?? 30)),
      },
    });
  }

  calls(path: string): RecordedRequest[] {
    return this.server.requests.filter((r) => r.path === path);
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  #issue(scopes = ['user:write:chat'], ttl = this.accessTtlSec) {
    const tokens = {
      access_token: `tw${randomBytes(12).toString('hex')}`,
      refresh_token: `twr${randomBytes(12).toString('hex')}`,
      expires_in: ttl,
      scope: scopes,
      token_type: 'bearer',
    };
    this.#access.set(tokens.access_token, { expires: Date.now() + ttl * 1000, scopes });
    this.#refresh.set(tokens.refresh_token, scopes);
    return tokens;
  }

  #token(header: unknown, scheme: string) {
    const value = String(header ?? '');
    const token = value.startsWith(`${scheme} `) ? value.slice(scheme.length + 1) : '';
    const known = this.#access.get(token);
    return known && known.expires > Date.now() ? known : undefined;
  }

  #helix(request: RecordedRequest, handle: (scopes: string[]) => FakeResponse): FakeResponse {
    const known = this.#token(request.headers.authorization, 'Bearer');
    if (!known) return helixError(401, 'Unauthorized', 'Invalid OAuth token');
    if (request.headers['client-id'] !== this.clientId)
      return helixError(401, 'Unauthorized', 'Client ID and OAuth token do not match');
    const reset = String(Math.floor(Date.now() / 1000) + 60);
    const answer = handle(known.scopes);
    return {
      ...answer,
      headers: {
        ...answer.headers,
        'ratelimit-limit': '800',
        'ratelimit-remaining': '799',
        'ratelimit-reset': reset,
      },
    };
  }

  #routes(): void {
    this.server
      .route('GET', /^\/oauth2\/authorize$/, (r) => {
        const q = r.query;
        if (q.get('client_id') !== this.clientId) return idError(400, 'invalid client');
        const back = new URL(q.get('redirect_uri') ?? '');
        if (q.get('state')) back.searchParams.set('state', q.get('state')!);
        if (q.get('response_type') !== 'code') back.searchParams.set('error', 'unsupported_response_type');
        else {
          const code = randomBytes(8).toString('hex');
          this.#codes.set(code, q.get('redirect_uri')!);
          back.searchParams.set('code', code);
          back.searchParams.set('scope', q.get('scope') ?? '');
        }
        return { status: 302, headers: { location: back.toString() } };
      })
      .route('POST', /^\/oauth2\/token$/, (r) => {
        const form = (r.body ?? {}) as Record<string, string>;
        if (form.client_id !== this.clientId) return idError(400, 'invalid client');
        if (form.client_secret !== this.clientSecret) return idError(403, 'invalid client secret');
        if (form.grant_type === 'authorization_code') {
          const redirect = this.#codes.get(form.code ?? '');
          if (!redirect || redirect !== form.redirect_uri) return idError(400, 'Invalid authorization code');
          this.#codes.delete(form.code!);
          return { json: this.#issue() };
        }
        if (form.grant_type === 'refresh_token') {
          const scopes = this.#refresh.get(form.refresh_token ?? '');
          if (!scopes) return idError(400, 'Invalid refresh token');
          this.refreshes++;
          return { json: this.#issue(scopes) };
        }
        return idError(400, 'unsupported grant type');
      })
      .route('GET', /^\/oauth2\/validate$/, (r) => {
        const known = this.#token(r.headers.authorization, 'OAuth');
        if (!known) return idError(401, 'invalid access token');
        return {
          json: {
            client_id: this.clientId,
            login: this.user.login,
            scopes: known.scopes,
            user_id: this.user.id,
            expires_in: Math.floor((known.expires - Date.now()) / 1000),
          },
        };
      })
      .route('GET', /^\/helix\/users$/, (r) =>
        this.#helix(r, () => ({
          json: {
            data: r.query.getAll('id').includes(this.user.id)
              ? [
                  {
                    id: this.user.id,
                    login: this.user.login,
                    display_name: this.user.displayName,
                    type: '',
                    broadcaster_type: 'affiliate',
                    profile_image_url: `https://static-cdn.jtvnw.example/${this.user.login}.png`,
                  },
                ]
              : [],
          },
        })),
      )
      .route('POST', /^\/helix\/chat\/messages$/, (r) =>
        this.#helix(r, (scopes) => {
          // biome-ignore lint/suspicious/noExplicitAny: the body as sent
          const body = (r.body ?? {}) as any;
          if (!scopes.includes('user:write:chat'))
            return helixError(401, 'Unauthorized', 'Missing scope: user:write:chat');
          if (!body.broadcaster_id || !body.sender_id || typeof body.message !== 'string')
            return helixError(400, 'Bad Request', 'Missing required parameter');
          if (body.sender_id !== this.user.id)
            return helixError(403, 'Forbidden', 'The sender_id must match the user ID in the access token');
          if (body.broadcaster_id !== this.user.id)
            return helixError(
              403,
              'Forbidden',
              'The sender is not permitted to send chat messages to the broadcaster',
            );
          if ([...body.message].length > 500)
            return helixError(422, 'Unprocessable Entity', 'The message is too large');
          const id = randomUUID();
          if (this.dropNext) {
            const reason = this.dropNext;
            this.dropNext = undefined;
            return { json: { data: [{ message_id: '', is_sent: false, drop_reason: reason }] } };
          }
          this.messages.push({
            id,
            broadcasterId: body.broadcaster_id,
            senderId: body.sender_id,
            text: body.message,
          });
          return { json: { data: [{ message_id: id, is_sent: true }] } };
        }),
      );
  }
}

export async function startFakeTwitch(): Promise<FakeTwitch> {
  return new FakeTwitch().start();
}
