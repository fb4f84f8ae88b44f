import {
  type ConnectableAccount,
  type OAuthConnector,
  PlatformError,
  type PlatformModule,
  type Publisher,
} from '@postwave/shared';
import { FakeServer, type RecordedRequest } from '@postwave/shared/testing';
import { z } from 'zod';
import { finishConnect, startConnect } from '#server/accounts/oauth-connect.ts';
import { pickAccounts } from '#server/accounts/oauth-picker.ts';
import type { AppContext } from '#server/context.ts';

/*
 * A test-only OAuth platform whose one login reaches several "spaces" (as a Pinterest login
 * reaches boards), for the Scheduler's generic machinery: shared grants, refresh-token rotation,
 * option choices loaded from the platform, and a request-token leg before consent. Its refresh
 * tokens are single use: every refresh answers a new one and invalidates the old one.
 */

export const loginPlatformId = 'test_login';

interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: string;
}

export interface FakeLogin {
  url: string;
  server: FakeServer;
  /** Posts the platform accepted: the space, the text and the options it was sent with. */
  posts: { space: string; text: string; collection?: string }[];
  refreshes: number;
  /** Access tokens last this long (0: every call refreshes first). */
  accessTtlSec: number;
  /** Every token of the login stops working (the user revoked the app). */
  revoke(): void;
  close(): Promise<void>;
}

const spaces = [
  { id: 'space-a', name: 'Space A' },
  { id: 'space-b', name: 'Space B' },
];
const collections: Record<string, { id: string; name: string }[]> = {
  'space-a': [
    { id: 'c1', name: 'Recipes' },
    { id: 'c2', name: 'Travel' },
  ],
  'space-b': [{ id: 'c3', name: 'Music' }],
};
const shelves: Record<string, { id: string; name: string }[]> = { c1: [{ id: 's1', name: 'Soups' }] };

export async function startFakeLogin(options: { accessTtlSec?: number } = {}): Promise<FakeLogin> {
  const server = new FakeServer();
  let counter = 0;
  const access = new Set<string>();
  const refresh = new Set<string>();
  const requestTokens = new Map<string, { secret: string; callback: string }>();
  const next = (prefix: string) => `${prefix}-${++counter}`;
  const fake: FakeLogin = {
    url: '',
    server,
    posts: [],
    refreshes: 0,
    accessTtlSec: options.accessTtlSec ?? 3600,
    revoke: () => {
      access.clear();
      refresh.clear();
    },
    close: () => server.close(),
  };
  const issue = () => {
    const tokens = { access_token: next('at'), refresh_token: next('rt'), expires_in: fake.accessTtlSec };
    access.add(tokens.access_token);
    refresh.add(tokens.refresh_token);
    return { json: tokens };
  };
  const bearer = (request: RecordedRequest) =>
    access.has(String(request.headers.authorization ?? '').replace(/^Bearer /, ''));
  const unauthorized = { status: 401, json: { error: 'invalid_token' } };
  server
    .route('GET', /^\/authorize$/, (request) => {
      const token = request.query.get('oauth_token');
      if (token) {
        const pending = requestTokens.get(token);
        if (!pending) return { status: 400, text: 'unknown request token' };
        const back = new URL(pending.callback);
        back.searchParams.set('oauth_token', token);
        back.searchParams.set('oauth_verifier', `verifier-for-${token}`);
        return { status: 302, headers: { location: back.toString() } };
      }
      const back = new URL(request.query.get('redirect_uri')!);
      back.searchParams.set('code', next('code'));
      back.searchParams.set('state', request.query.get('state')!);
      return { status: 302, headers: { location: back.toString() } };
    })
    .route('POST', /^\/oauth\/request_token$/, (request) => {
      const body = request.body as Record<string, string>;
      const token = next('rqt');
      requestTokens.set(token, { secret: next('rqs'), callback: body.oauth_callback! });
      return { json: { oauth_token: token, oauth_token_secret: requestTokens.get(token)!.secret } };
    })
    .route('POST', /^\/oauth\/token$/, (request) => {
      const body = request.body as Record<string, string>;
      if (body.grant_type === 'authorization_code') return issue();
      if (body.grant_type === 'request_token') {
        const pending = requestTokens.get(body.oauth_token ?? '');
        const valid =
          pending &&
          pending.secret === body.oauth_token_secret &&
          body.oauth_verifier === `verifier-for-${body.oauth_token}`;
        if (!valid) return { status: 401, json: { error: 'invalid_request_token' } };
        requestTokens.delete(body.oauth_token!);
        return issue();
      }
      if (body.grant_type === 'refresh_token' && refresh.delete(body.refresh_token ?? '')) {
        fake.refreshes++;
        return issue();
      }
      return { status: 400, json: { error: 'invalid_grant' } };
    })
    .route('GET', /^\/me$/, (request) =>
      bearer(request) ? { json: { id: 'user-1', name: 'Tester' } } : unauthorized,
    )
    .route('GET', /^\/spaces$/, (request) => (bearer(request) ? { json: { items: spaces } } : unauthorized))
    .route('GET', /^\/spaces\/([^/]+)\/collections$/, (request, match) =>
      bearer(request) ? { json: { items: collections[match[1]!] ?? [] } } : unauthorized,
    )
    .route('GET', /^\/collections\/([^/]+)\/shelves$/, (request, match) =>
      bearer(request) ? { json: { items: shelves[match[1]!] ?? [] } } : unauthorized,
    )
    .route('POST', /^\/posts$/, (request) => {
      if (!bearer(request)) return unauthorized;
      const body = request.body as { space: string; text: string; collection?: string };
      fake.posts.push(body);
      return { status: 201, json: { id: next('post') } };
    });
  await server.start();
  fake.url = server.url;
  return fake;
}

const credentials = z.object({ accessToken: z.string(), refreshToken: z.string(), expiresAt: z.string() });
const optionsSchema = z.object({
  collection: z.string().optional(),
  shelf: z.string().optional(),
  note: z.string().optional(),
});

function tokensFrom(body: { access_token: string; refresh_token: string; expires_in: number }): Tokens {
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: new Date(Date.now() + body.expires_in * 1000).toISOString(),
  };
}

async function call(url: string, init: RequestInit, signal?: AbortSignal): Promise<unknown> {
  const response = await fetch(url, { ...init, ...(signal ? { signal } : {}) });
  if (response.status === 401 || response.status === 400)
    throw new PlatformError('needs_reconnect', 'The login was refused', {
      retryable: false,
      status: response.status,
    });
  if (response.status === 429) {
    const seconds = Number(response.headers.get('retry-after') ?? '1');
    throw new PlatformError('rate_limited', 'Slow down', { retryAfterMs: seconds * 1000, status: 429 });
  }
  if (!response.ok)
    throw new PlatformError('platform_unavailable', `HTTP ${response.status}`, { status: response.status });
  return response.json();
}

function publisher(fake: FakeLogin): Publisher<z.infer<typeof optionsSchema>> {
  /** The account's tokens, refreshed first when they expire within a minute (rotating the refresh token). */
  const fresh = async (
    account: { credentials: Record<string, unknown> },
    context: {
      signal?: AbortSignal;
      onCredentialsRefreshed?: (c: Record<string, unknown>) => void | Promise<void>;
    },
  ): Promise<Tokens> => {
    const tokens = credentials.parse(account.credentials);
    if (Date.parse(tokens.expiresAt) - Date.now() > 60_000) return tokens;
    const body = (await call(
      `${fake.url}/oauth/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken }),
      },
      context.signal,
    )) as { access_token: string; refresh_token: string; expires_in: number };
    const renewed = tokensFrom(body);
    await context.onCredentialsRefreshed?.(renewed as unknown as Record<string, unknown>);
    return renewed;
  };
  const get = async (path: string, token: string, signal?: AbortSignal) =>
    (
      (await call(`${fake.url}${path}`, { headers: { authorization: `Bearer ${token}` } }, signal)) as {
        items: { id: string; name: string }[];
      }
    ).items;
  return {
    id: loginPlatformId,
    displayName: 'Test Login',
    optionsSchema,
    credentialsSchema: credentials,
    concurrency: 4,
    validate: async () => ({ errors: [], warnings: [] }),
    publish: async (post, account, _media, options, context) => {
      const tokens = await fresh(account, context);
      const answer = (await call(
        `${fake.url}/posts`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ space: account.platformAccountId, text: post.message, ...options }),
        },
        context.signal,
      )) as { id: string };
      return { platformPostId: answer.id };
    },
    optionChoices: async (account, field, values, context) => {
      const tokens = await fresh(account, context);
      const items =
        field === 'collection'
          ? await get(`/spaces/${account.platformAccountId}/collections`, tokens.accessToken, context.signal)
          : field === 'shelf'
            ? values.collection
              ? await get(`/collections/${values.collection}/shelves`, tokens.accessToken, context.signal)
              : []
            : [{ id: 'suggested', name: 'A suggested note' }];
      return items.map((i) => ({ value: i.id, label: i.name }));
    },
    verifyCredentials: async (account, context) => {
      const tokens = await fresh(account, context ?? {});
      const me = (await call(`${fake.url}/me`, {
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      })) as {
        name: string;
      };
      return { name: me.name };
    },
  };
}

function connector(fake: FakeLogin, requestToken: boolean): OAuthConnector {
  const accountsOf = async (tokens: Tokens, signal: AbortSignal): Promise<ConnectableAccount[]> =>
    (await get(tokens, signal)).map((space) => ({
      platformAccountId: space.id,
      credentials: { ...tokens },
      profile: { name: space.name },
      kind: 'Space',
      grantKey: 'user-1',
    }));
  const get = async (tokens: Tokens, signal: AbortSignal) =>
    (
      (await call(
        `${fake.url}/spaces`,
        { headers: { authorization: `Bearer ${tokens.accessToken}` } },
        signal,
      )) as {
        items: { id: string; name: string }[];
      }
    ).items;
  const token = async (form: Record<string, string>, signal: AbortSignal) =>
    tokensFrom(
      (await call(
        `${fake.url}/oauth/token`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form),
        },
        signal,
      )) as { access_token: string; refresh_token: string; expires_in: number },
    );
  return {
    platform: loginPlatformId,
    configured: true,
    pkce: !requestToken,
    authorizeUrl: ({ state, redirectUri }) =>
      `${fake.url}/authorize?${new URLSearchParams({ state, redirect_uri: redirectUri })}`,
    ...(requestToken
      ? {
          // OAuth 1.0a style: our state rides in the callback URL, the request token's secret is kept for the exchange.
          startAuthorization: async ({ state, redirectUri, signal }) => {
            const body = (await call(
              `${fake.url}/oauth/request_token`,
              {
                method: 'POST',
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body: new URLSearchParams({ oauth_callback: `${redirectUri}?state=${state}` }),
              },
              signal,
            )) as { oauth_token: string; oauth_token_secret: string };
            return {
              url: `${fake.url}/authorize?oauth_token=${body.oauth_token}`,
              secret: body.oauth_token_secret,
            };
          },
        }
      : {}),
    exchangeCode: async ({ code, secret, query, signal }) => {
      const tokens = requestToken
        ? await token(
            {
              grant_type: 'request_token',
              oauth_token: query?.oauth_token ?? '',
              oauth_verifier: code,
              oauth_token_secret: secret ?? '',
            },
            signal,
          )
        : await token({ grant_type: 'authorization_code', code }, signal);
      return accountsOf(tokens, signal);
    },
  };
}

/** The test platform as a module, its publisher and connector talking to `fake`. */
export function loginPlatformModule(
  fake: FakeLogin,
  options: { requestToken?: boolean } = {},
): PlatformModule {
  return {
    id: loginPlatformId,
    manifest: {
      id: loginPlatformId,
      name: 'Test Login',
      icon: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/></svg>',
      color: '#123456',
      text: {
        limit: 500,
        unit: 'characters',
        count: ({ message }) => ({ used: message.length, limit: 500, unit: 'characters' }),
      },
      media: { required: false, maxItems: 0, kinds: [], summary: 'No media' },
      options: [
        { name: 'collection', label: 'Collection', type: 'select', choicesFrom: {} },
        { name: 'shelf', label: 'Shelf', type: 'select', choicesFrom: { dependsOn: 'collection' } },
        { name: 'note', label: 'Note', type: 'text', choicesFrom: { allowCustom: true } },
      ],
      features: { thread: false, firstComment: false, altText: null },
      connect: {
        method: 'oauth',
        startPath: `/api/v1/accounts/connect/${loginPlatformId}`,
        requiredEnv: ['TEST_LOGIN_CLIENT_ID'],
        intro: 'Test only.',
      },
      docs: 'docs/platforms/README.md',
      analytics: { post: [], account: [] },
    },
    create: () => publisher(fake),
    createConnector: () => connector(fake, options.requestToken ?? false),
  };
}

/** Connects every space of the fake's login for the user (the picker, both chosen); their account ids. */
export async function connectLoginSpaces(ctx: AppContext, userId: string): Promise<string[]> {
  const url = await startConnect(ctx, userId, loginPlatformId);
  const approved = await fetch(url, { redirect: 'manual' });
  const callback = new URL(approved.headers.get('location')!);
  const outcome = await finishConnect(ctx, userId, loginPlatformId, callback.searchParams);
  if (outcome.kind !== 'pick') throw new Error('the login reaches two spaces: expected the picker');
  const saved = await pickAccounts(
    ctx,
    userId,
    loginPlatformId,
    outcome.token,
    spaces.map((s) => s.id),
  );
  return saved.map((a) => a.id);
}
