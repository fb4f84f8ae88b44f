import { createHash, randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

/**
 * A fake of the Google Business Profile APIs and Google's OAuth, on one server: the consent page
 * (`/o/oauth2/v2/auth`, PKCE), the token endpoint (authorization_code with PKCE, refresh_token;
 * `invalid_grant` once revoked; optionally rotating refresh tokens), the Account Management API
 * (`GET /v1/accounts`), the Business Information API (`GET /v1/{account}/locations` and
 * `GET /v1/locations/{id}`, both requiring `readMask`), and local posts
 * (`POST`/`GET /v4/accounts/{a}/locations/{l}/localPosts`) with Google's error bodies:
 * 401 UNAUTHENTICATED, 403 ACCESS_TOKEN_SCOPE_INSUFFICIENT, 400 INVALID_ARGUMENT with a
 * `google.mybusiness.v4.ValidationError`, 404 NOT_FOUND, 429 RESOURCE_EXHAUSTED.
 */
export interface FakeBusinessLocation {
  account: string;
  id: string;
  title: string;
  address: string;
}

export interface FakeLocalPost {
  name: string;
  location: string;
  body: Record<string, unknown>;
  createTime: string;
}

const businessScope = 'https://www.googleapis.com/auth/business.manage';

export class FakeGoogleBusiness {
  readonly server = new FakeServer();
  readonly clientId = 'fake-gbp-client.apps.googleusercontent.com';
  readonly clientSecret = 'fake-gbp-secret';
  readonly accounts = [
    { name: 'accounts/1100', accountName: 'Ana Example', type: 'PERSONAL' },
    { name: 'accounts/2200', accountName: 'Corner Bakery Group', type: 'LOCATION_GROUP' },
  ];
  readonly locations: FakeBusinessLocation[] = [
    { account: 'accounts/1100', id: '9001', title: 'Corner Bakery Main St', address: '1 Main St' },
    { account: 'accounts/2200', id: '9002', title: 'Corner Bakery Harbour', address: '5 Quay Rd' },
    // The same location reached through two accounts is one location.
    { account: 'accounts/2200', id: '9001', title: 'Corner Bakery Main St', address: '1 Main St' },
  ];
  readonly posts: FakeLocalPost[] = [];
  consent: 'approve' | 'deny' = 'approve';
  /** Each refresh answers a new refresh token and retires the old one (Google may rotate). */
  rotateRefreshTokens = false;
  accessTtlSeconds = 3599;
  /** False: only the older v4 account and location lists are served (v1 answers 404). */
  v1Served = true;
  refreshes = 0;
  readonly #grants = new Map<string, { scope: string; revoked: boolean }>();
  readonly #access = new Map<string, { expiresAt: number; scope: string }>();
  readonly #codes = new Map<
    string,
    { redirectUri: string; challenge: string; scope: string; used: boolean }
  >();

  constructor() {
    this.server
      .route('GET', /^\/o\/oauth2\/v2\/auth$/, (r) => this.#authorize(r))
      .route('POST', /^\/token$/, (r) => this.#token(r))
      .route('GET', /^\/v1\/accounts$/, (r) => this.#v1(r, () => this.#listAccounts(r)))
      .route('GET', /^\/v1\/(accounts\/[^/]+)\/locations$/, (r, m) =>
        this.#v1(r, () => this.#listLocations(r, m[1]!, 'v1')),
      )
      .route('GET', /^\/v4\/accounts$/, (r) => this.#authed(r, () => this.#listAccounts(r)))
      .route('GET', /^\/v4\/(accounts\/[^/]+)\/locations$/, (r, m) =>
        this.#authed(r, () => this.#listLocations(r, m[1]!, 'v4')),
      )
      .route('GET', /^\/v1\/locations\/([^/]+)$/, (r, m) =>
        this.#authed(r, () => this.#getLocation(r, m[1]!)),
      )
      .route('POST', /^\/v4\/(accounts\/[^/]+\/locations\/[^/]+)\/localPosts$/, (r, m) =>
        this.#authed(r, () => this.#createPost(r, m[1]!)),
      )
      .route('GET', /^\/v4\/(accounts\/[^/]+\/locations\/[^/]+)\/localPosts$/, (r, m) =>
        this.#authed(r, () => this.#listPosts(m[1]!)),
      );
  }

  get url(): string {
    return this.server.url;
  }

  env(): Record<string, string> {
    return {
      GOOGLE_BUSINESS_API_URL: this.url,
      GOOGLE_OAUTH_TOKEN_URL: `${this.url}/token`,
      GOOGLE_OAUTH_AUTHORIZE_URL: `${this.url}/o/oauth2/v2/auth`,
      GOOGLE_CLIENT_ID: this.clientId,
      GOOGLE_CLIENT_SECRET: this.clientSecret,
    };
  }

  /** Credentials as an accounts file holds them (no access token: the first call refreshes). */
  credentials(options: { scope?: string } = {}): Record<string, unknown> {
    const refreshToken = `1//${randomBytes(18).toString('base64url')}`;
    this.#grants.set(refreshToken, { scope: options.scope ?? businessScope, revoked: false });
    return { clientId: this.clientId, clientSecret: this.clientSecret, refreshToken };
  }

  expireAccessTokens(): void {
    this.#access.clear();
  }

  /** The user removed the app's access: refresh answers invalid_grant, access tokens 401. */
  revokeAll(): void {
    this.#access.clear();
    for (const grant of this.#grants.values()) grant.revoked = true;
  }

  requestsTo(method: string, path: RegExp): RecordedRequest[] {
    return this.server.requests.filter((r) => r.method === method && path.test(r.path));
  }

  start(): Promise<FakeServer> {
    return this.server.start();
  }

  close(): Promise<void> {
    return this.server.close();
  }

  #issue(scope: string): { access_token: string; expires_in: number; scope: string; token_type: string } {
    const token = `ya29.${randomBytes(24).toString('base64url')}`;
    this.#access.set(token, { expiresAt: Date.now() + this.accessTtlSeconds * 1000, scope });
    return { access_token: token, expires_in: this.accessTtlSeconds, scope, token_type: 'Bearer' };
  }

  #authorize(request: RecordedRequest): FakeResponse {
    const q = request.query;
    if (q.get('client_id') !== this.clientId) return { status: 401, text: 'Error 401: invalid_client' };
    const redirectUri = q.get('redirect_uri');
    if (!redirectUri) return { status: 400, text: 'Error 400: invalid_request (redirect_uri missing)' };
    const back = new URL(redirectUri);
    back.searchParams.set('state', q.get('state') ?? '');
    if (this.consent === 'deny') back.searchParams.set('error', 'access_denied');
    else {
      const challenge = q.get('code_challenge');
      if (!challenge || q.get('code_challenge_method') !== 'S256')
        return { status: 400, text: 'Error 400: invalid_request (code_challenge missing)' };
      const code = `4/${randomBytes(18).toString('base64url')}`;
      this.#codes.set(code, { redirectUri, challenge, scope: q.get('scope') ?? '', used: false });
      back.searchParams.set('code', code);
      back.searchParams.set('scope', q.get('scope') ?? '');
    }
    return { status: 302, headers: { location: back.toString() } };
  }

  #token(request: RecordedRequest): FakeResponse {
    const form = (request.body ?? {}) as Record<string, string>;
    const error = (status: number, code: string, description: string): FakeResponse => ({
      status,
      json: { error: code, error_description: description },
    });
    if (form.client_id !== this.clientId || form.client_secret !== this.clientSecret)
      return error(401, 'invalid_client', 'The OAuth client was not found.');
    if (form.grant_type === 'authorization_code') {
      const issued = this.#codes.get(form.code ?? '');
      if (!issued || issued.used) return error(400, 'invalid_grant', 'Malformed auth code.');
      issued.used = true;
      if (issued.redirectUri !== form.redirect_uri) return error(400, 'redirect_uri_mismatch', 'Bad Request');
      const verifier = createHash('sha256')
        .update(form.code_verifier ?? '')
        .digest('base64url');
      if (verifier !== issued.challenge) return error(400, 'invalid_grant', 'Invalid code verifier.');
      const refreshToken = `1//${randomBytes(18).toString('base64url')}`;
      this.#grants.set(refreshToken, { scope: issued.scope, revoked: false });
      return { json: { ...this.#issue(issued.scope), refresh_token: refreshToken } };
    }
    if (form.grant_type === 'refresh_token') {
      const grant = this.#grants.get(form.refresh_token ?? '');
      if (!grant || grant.revoked) return error(400, 'invalid_grant', 'Token has been expired or revoked.');
      this.refreshes++;
      if (!this.rotateRefreshTokens) return { json: this.#issue(grant.scope) };
      this.#grants.delete(form.refresh_token!);
      const rotated = `1//${randomBytes(18).toString('base64url')}`;
      this.#grants.set(rotated, grant);
      return { json: { ...this.#issue(grant.scope), refresh_token: rotated } };
    }
    return error(400, 'unsupported_grant_type', 'Invalid grant_type');
  }

  #authed(request: RecordedRequest, handle: () => FakeResponse): FakeResponse {
    const bearer = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    const token = this.#access.get(bearer);
    if (!token || token.expiresAt < Date.now())
      return {
        ...googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'),
        headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
      };
    if (!token.scope.split(' ').includes(businessScope))
      return googleError(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.', [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
          domain: 'googleapis.com',
        },
      ]);
    return handle();
  }

  #v1(request: RecordedRequest, handle: () => FakeResponse): FakeResponse {
    if (!this.v1Served) return googleError(404, 'NOT_FOUND', 'Method not found.');
    return this.#authed(request, handle);
  }

  #listAccounts(request: RecordedRequest): FakeResponse {
    const size = Math.min(20, Number(request.query.get('pageSize') ?? 20));
    const start = Number(request.query.get('pageToken') ?? 0);
    const page = this.accounts.slice(start, start + size);
    return {
      json: {
        accounts: page,
        ...(start + size < this.accounts.length ? { nextPageToken: String(start + size) } : {}),
      },
    };
  }

  #listLocations(request: RecordedRequest, account: string, version: 'v1' | 'v4'): FakeResponse {
    if (version === 'v1' && !request.query.get('readMask'))
      return googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
    if (!this.accounts.some((a) => a.name === account))
      return googleError(404, 'NOT_FOUND', 'Requested entity was not found.');
    const all = this.locations.filter((l) => l.account === account);
    const size = Math.min(100, Number(request.query.get('pageSize') ?? 10));
    const start = Number(request.query.get('pageToken') ?? 0);
    return {
      json: {
        locations: all.slice(start, start + size).map((l) =>
          version === 'v1'
            ? {
                name: `locations/${l.id}`,
                title: l.title,
                storefrontAddress: { addressLines: [l.address], locality: 'Springfield' },
              }
            : {
                name: `${account}/locations/${l.id}`,
                locationName: l.title,
                address: { addressLines: [l.address] },
              },
        ),
        ...(start + size < all.length ? { nextPageToken: String(start + size) } : {}),
      },
    };
  }

  #getLocation(request: RecordedRequest, id: string): FakeResponse {
    if (!request.query.get('readMask'))
      return googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
    const location = this.locations.find((l) => l.id === id);
    if (!location) return googleError(404, 'NOT_FOUND', 'Requested entity was not found.');
    return { json: { name: `locations/${id}`, title: location.title } };
  }

  #createPost(request: RecordedRequest, location: string): FakeResponse {
    const [, account, , id] = location.split('/');
    if (!this.locations.some((l) => l.account === `accounts/${account}` && l.id === id))
      return googleError(404, 'NOT_FOUND', 'Requested entity was not found.');
    const body = (request.body ?? {}) as Record<string, unknown>;
    const problems = localPostProblems(body);
    if (problems.length > 0)
      return googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', [
        {
          '@type': 'type.googleapis.com/google.mybusiness.v4.ValidationError',
          errorDetails: problems.map(([field, message]) => ({ code: 3, field, message })),
        },
      ]);
    const name = `${location}/localPosts/${randomBytes(8).toString('hex')}`;
    const createTime = new Date().toISOString();
    this.posts.push({ name, location, body, createTime });
    return {
      json: {
        ...body,
        name,
        createTime,
        updateTime: createTime,
        state: 'LIVE',
        searchUrl: `https://local.google.com/place?id=${id}&use=posts&lpsid=${name.split('/').pop()}`,
      },
    };
  }

  #listPosts(location: string): FakeResponse {
    return {
      json: {
        localPosts: this.posts
          .filter((p) => p.location === location)
          .reverse()
          .map((p) => ({ ...p.body, name: p.name, createTime: p.createTime, state: 'LIVE' })),
      },
    };
  }
}

/** What Google refuses in a LocalPost, as `[field, message]`. */
function localPostProblems(body: Record<string, unknown>): [string, string][] {
  const problems: [string, string][] = [];
  const topic = body.topicType;
  if (!['STANDARD', 'EVENT', 'OFFER', 'ALERT'].includes(String(topic)))
    problems.push(['topic_type', 'Invalid topic type']);
  const summary = typeof body.summary === 'string' ? body.summary : '';
  if ([...summary].length > 1500) problems.push(['summary', 'Summary is too long']);
  const media = (body.media as { mediaFormat?: string; sourceUrl?: string }[] | undefined) ?? [];
  if (media.some((m) => m.mediaFormat !== 'PHOTO' && m.mediaFormat !== 'VIDEO'))
    problems.push(['media.media_format', 'Invalid media format']);
  if (media.some((m) => !/^https?:\/\//.test(m.sourceUrl ?? '')))
    problems.push(['media.source_url', 'Invalid source URL']);
  const cta = body.callToAction as { actionType?: string; url?: string } | undefined;
  if (cta && cta.actionType !== 'CALL' && !/^https?:\/\//.test(cta.url ?? ''))
    problems.push(['call_to_action.url', 'A URL is required']);
  const event = body.event as
    | { title?: string; schedule?: { startDate?: unknown; endDate?: unknown } }
    | undefined;
  if (topic === 'EVENT' || topic === 'OFFER') {
    if (!event?.title) problems.push(['event.title', 'Event title is required']);
    if (!event?.schedule?.startDate || !event.schedule.endDate)
      problems.push(['event.schedule', 'Event schedule is required']);
  }
  if (topic === 'STANDARD' && !summary && media.length === 0)
    problems.push(['summary', 'Summary is required']);
  return problems;
}

function googleError(code: number, status: string, message: string, details?: unknown[]): FakeResponse {
  return { status: code, json: { error: { code, message, status, ...(details ? { details } : {}) } } };
}

export async function startFakeGoogleBusiness(): Promise<FakeGoogleBusiness> {
  const fake = new FakeGoogleBusiness();
  await fake.start();
  return fake;
}
