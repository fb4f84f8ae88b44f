import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

/*
 * A fake of Tumblr's API v2 as documented at https://www.tumblr.com/docs/en/api/v2 and
 * https://www.tumblr.com/docs/npf: OAuth 2 (consent redirect, `POST /v2/oauth2/token` with the
 * client id and secret in the form, access tokens of 2520 s, refresh tokens that are single-use
 * and replaced on every refresh), `GET /v2/user/info`, NPF `POST /v2/blog/{blog}/posts` as JSON
 * or multipart (a `json` part plus one part per media `identifier`), post lists
 * (`/posts`, `/posts/draft`, `/posts/queue`), the `{ meta, response, errors }` envelope and the
 * `X-Ratelimit-Perday-*` / `X-Ratelimit-Perhour-*` headers.
 */

export interface FakeTumblrBlog {
  name: string;
  title: string;
  primary?: boolean;
  uuid?: string;
}

export interface FakeTumblrMedia {
  identifier: string;
  type: string;
  filename: string;
  size: number;
}

export interface FakeTumblrPost {
  id: string;
  blog: string;
  state: string;
  tags: string[];
  // biome-ignore lint/suspicious/noExplicitAny: NPF blocks as sent
  content: any[];
  media: FakeTumblrMedia[];
  timestamp: number;
  /** How it arrived: `json` or `multipart`. */
  encoding: 'json' | 'multipart';
}

export interface FakeTumblrOptions {
  user?: { name: string; blogs: FakeTumblrBlog[] };
  clientId?: string;
  clientSecret?: string;
  accessTtlSec?: number;
}

const envelope = (status: number, msg: string, response: unknown = [], errors?: unknown[]): FakeResponse => ({
  status,
  json: { meta: { status, msg }, response, ...(errors ? { errors } : {}) },
});
const apiError = (status: number, msg: string, code: number, detail: string) =>
  envelope(status, msg, [], [{ title: msg, code, detail }]);
const unauthorized = () => apiError(401, 'Unauthorized', 1016, 'Unable to authorize');
const tokenError = (status: number, error: string, description: string): FakeResponse => ({
  status,
  json: { error, error_description: description },
});

const maxTextBlock = 4096;

export class FakeTumblr {
  readonly server = new FakeServer({ maxBodyBytes: 600 * 1024 * 1024 });
  readonly clientId: string;
  readonly clientSecret: string;
  readonly user: { name: string; blogs: FakeTumblrBlog[] };
  readonly posts: FakeTumblrPost[] = [];
  accessTtlSec: number;
  consent: 'approve' | 'deny' = 'approve';
  refreshes = 0;
  /** Refresh tokens spent by refreshes, in order, and the refresh token each refresh answered. */
  readonly refreshLog: { spent: string; issued: string }[] = [];
  readonly #access = new Map<string, number>();
  readonly #refresh = new Set<string>();
  readonly #codes = new Map<string, string>();
  #nextId = 7_000_000_000_000_000;
  #perHourRemaining = 250;

  constructor(options: FakeTumblrOptions = {}) {
    this.clientId = options.clientId ?? 'tumblr-consumer-key';
    this.clientSecret = options.clientSecret ?? 'tumblr-consumer-secret';
    this.user = options.user ?? {
      name: 'alice',
      blogs: [
        { name: 'alice', title: 'Alice writes', primary: true, uuid: 't:alice-uuid' },
        { name: 'alice-art', title: 'Alice draws', uuid: 't:alice-art-uuid' },
      ],
    };
    this.accessTtlSec = options.accessTtlSec ?? 2520;
    this.#routes();
  }

  get url(): string {
    return this.server.url;
  }

  env(): Record<string, string> {
    return {
      TUMBLR_API_URL: this.url,
      TUMBLR_OAUTH_AUTHORIZE_URL: `${this.url}/oauth2/authorize`,
      TUMBLR_CLIENT_ID: this.clientId,
      TUMBLR_CLIENT_SECRET: this.clientSecret,
    };
  }

  /** Credentials as the accounts file holds them (a valid token pair). */
  credentials(options: { expiresInSeconds?: number } = {}): Record<string, unknown> {
    const tokens = this.#issue(options.expiresInSeconds);
    return {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      expiresAt: new Date(Date.now() + (options.expiresInSeconds ?? this.accessTtlSec) * 1000).toISOString(),
    };
  }

  /** Every token stops working (the user revoked the app). */
  revoke(): void {
    this.#access.clear();
    this.#refresh.clear();
  }

  /** The next `times` API calls answer 429 with the hourly window spent, resetting in `resetSeconds`. */
  rateLimit(options: { times?: number; resetSeconds?: number } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      path: /^\/v2\/blog\//,
      ...apiError(429, 'Limit Exceeded', 0, 'Rate limit exceeded'),
      headers: {
        'x-ratelimit-perhour-limit': '250',
        'x-ratelimit-perhour-remaining': '0',
        'x-ratelimit-perhour-reset': String(options.resetSeconds ?? 0),
      },
    });
  }

  calls(method: string, path: RegExp): RecordedRequest[] {
    return this.server.requests.filter((r) => r.method === method && path.test(r.path));
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  #issue(ttl = this.accessTtlSec) {
    const tokens = {
      access_token: `tat-${randomBytes(9).toString('hex')}`,
      refresh_token: `trt-${randomBytes(9).toString('hex')}`,
      expires_in: ttl,
      token_type: 'bearer',
      scope: 'basic write offline_access',
    };
    this.#access.set(tokens.access_token, Date.now() + ttl * 1000);
    this.#refresh.add(tokens.refresh_token);
    return tokens;
  }

  #authed(request: RecordedRequest, handle: () => FakeResponse | Promise<FakeResponse>) {
    const header = String(request.headers.authorization ?? '');
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const expires = this.#access.get(token);
    if (expires === undefined || expires <= Date.now()) return unauthorized();
    return handle();
  }

  #limits(response: FakeResponse): FakeResponse {
    this.#perHourRemaining = Math.max(0, this.#perHourRemaining - 1);
    return {
      ...response,
      headers: {
        ...response.headers,
        'x-ratelimit-perday-limit': '5000',
        'x-ratelimit-perday-remaining': '4999',
        'x-ratelimit-perday-reset': '86399',
        'x-ratelimit-perhour-limit': '250',
        'x-ratelimit-perhour-remaining': String(this.#perHourRemaining),
        'x-ratelimit-perhour-reset': '3599',
      },
    };
  }

  #routes(): void {
    this.server
      .route('GET', /^\/oauth2\/authorize$/, (r) => this.#authorize(r))
      .route('POST', /^\/v2\/oauth2\/token$/, (r) => this.#token(r))
      .route('GET', /^\/v2\/user\/info$/, (r) =>
        this.#authed(r, () =>
          this.#limits(
            envelope(200, 'OK', {
              user: {
                name: this.user.name,
                likes: 0,
                following: 3,
                default_post_format: 'html',
                blogs: this.user.blogs.map((b) => ({
                  name: b.name,
                  title: b.title,
                  url: `https://${b.name}.tumblr.com/`,
                  uuid: b.uuid ?? `t:${b.name}`,
                  primary: Boolean(b.primary),
                  admin: true,
                  avatar: [64, 128].map((w) => ({
                    width: w,
                    height: w,
                    url: `https://64.media.tumblr.com/avatar_${b.name}_${w}.png`,
                  })),
                })),
              },
            }),
          ),
        ),
      )
      .route('POST', /^\/v2\/blog\/([^/]+)\/posts$/, (r, m) =>
        this.#authed(r, () => this.#limits(this.#create(r, decodeURIComponent(m[1]!)))),
      )
      .route('GET', /^\/v2\/blog\/([^/]+)\/posts(?:\/(draft|queue))?$/, (r, m) =>
        this.#authed(r, () => this.#limits(this.#list(decodeURIComponent(m[1]!), m[2] ?? 'published'))),
      );
  }

  #authorize(request: RecordedRequest): FakeResponse {
    const q = request.query;
    if (q.get('client_id') !== this.clientId) return { status: 400, text: 'Invalid client_id' };
    const redirect = q.get('redirect_uri');
    if (!redirect) return { status: 400, text: 'Missing redirect_uri' };
    const back = new URL(redirect);
    const state = q.get('state');
    if (state) back.searchParams.set('state', state);
    if (q.get('response_type') !== 'code' || !state) back.searchParams.set('error', 'invalid_request');
    else if (this.consent === 'deny') back.searchParams.set('error', 'access_denied');
    else {
      const code = `tcode-${randomBytes(6).toString('hex')}`;
      this.#codes.set(code, redirect);
      back.searchParams.set('code', code);
    }
    return { status: 302, headers: { location: back.toString() } };
  }

  #token(request: RecordedRequest): FakeResponse {
    const form = (request.body ?? {}) as Record<string, string>;
    if (form.client_id !== this.clientId || form.client_secret !== this.clientSecret)
      return tokenError(401, 'invalid_client', 'Client authentication failed');
    if (form.grant_type === 'authorization_code') {
      const redirect = form.code ? this.#codes.get(form.code) : undefined;
      if (!redirect || redirect !== form.redirect_uri)
        return tokenError(400, 'invalid_grant', 'The authorization code is invalid or expired');
      this.#codes.delete(form.code!);
      return { json: this.#issue() };
    }
    if (form.grant_type === 'refresh_token') {
      if (!form.refresh_token || !this.#refresh.has(form.refresh_token))
        return tokenError(400, 'invalid_grant', 'The refresh token is invalid');
      // Single use: the answer carries the replacement.
      this.#refresh.delete(form.refresh_token);
      this.refreshes++;
      const tokens = this.#issue();
      this.refreshLog.push({ spent: form.refresh_token, issued: tokens.refresh_token });
      return { json: tokens };
    }
    return tokenError(400, 'unsupported_grant_type', 'Unsupported grant type');
  }

  #create(request: RecordedRequest, blogName: string): FakeResponse {
    const blog = this.user.blogs.find((b) => b.name === blogName || `${b.name}.tumblr.com` === blogName);
    if (!blog) return apiError(404, 'Not Found', 0, 'Blog not found');
    const type = String(request.headers['content-type'] ?? '');
    // biome-ignore lint/suspicious/noExplicitAny: the NPF body as sent
    let body: any;
    const media: FakeTumblrMedia[] = [];
    if (type.startsWith('multipart/form-data')) {
      const json = (request.body as Record<string, unknown> | undefined)?.json;
      try {
        body = JSON.parse(typeof json === 'string' ? json : '');
      } catch {
        return apiError(400, 'Bad Request', 8001, 'The json part is missing or not JSON');
      }
    } else if (type.startsWith('application/json')) body = request.body;
    else return apiError(400, 'Bad Request', 8001, 'Unsupported content type');
    if (!body || !Array.isArray(body.content) || body.content.length === 0)
      return apiError(400, 'Bad Request', 8001, 'Posts need content');
    for (const block of body.content) {
      if (block?.type === 'text') {
        if (typeof block.text !== 'string' || block.text.length === 0)
          return apiError(400, 'Bad Request', 8001, 'Text blocks need text');
        if ([...block.text].length > maxTextBlock)
          return apiError(400, 'Bad Request', 8001, `Text blocks may hold ${maxTextBlock} characters`);
      } else if (block?.type === 'image' || block?.type === 'video') {
        const refs = block.type === 'image' ? block.media : [block.media];
        if (!Array.isArray(refs) || refs.length === 0)
          return apiError(400, 'Bad Request', 8001, `${block.type} blocks need media`);
        for (const ref of refs) {
          const file = ref?.identifier ? request.files[ref.identifier] : undefined;
          if (!file)
            return apiError(
              400,
              'Bad Request',
              8001,
              `Missing media file for identifier "${ref?.identifier}"`,
            );
          media.push({ identifier: ref.identifier, type: file.type, filename: file.name, size: file.size });
        }
      } else return apiError(400, 'Bad Request', 8001, `Unknown block type "${block?.type}"`);
    }
    const state = body.state ?? 'published';
    if (!['published', 'draft', 'queue', 'private'].includes(state))
      return apiError(400, 'Bad Request', 8001, 'Invalid state');
    const post: FakeTumblrPost = {
      id: String(this.#nextId++),
      blog: blog.name,
      state,
      tags: typeof body.tags === 'string' && body.tags !== '' ? body.tags.split(',') : [],
      content: body.content,
      media,
      timestamp: Math.floor(Date.now() / 1000),
      encoding: type.startsWith('multipart') ? 'multipart' : 'json',
    };
    this.posts.push(post);
    return envelope(201, 'Created', { id: post.id, state, display_text: `Posted to ${blog.name}` });
  }

  #list(blogName: string, state: string): FakeResponse {
    const blog = this.user.blogs.find((b) => b.name === blogName);
    if (!blog) return apiError(404, 'Not Found', 0, 'Blog not found');
    const posts = this.posts
      .filter((p) => p.blog === blog.name && p.state === state)
      .reverse()
      .slice(0, 20)
      .map((p) => ({
        object_type: 'post',
        type: 'blocks',
        id: Number(p.id),
        id_string: p.id,
        blog_name: p.blog,
        state: p.state,
        timestamp: p.timestamp,
        tags: p.tags,
        content: p.content.map((b) =>
          b.type === 'text' ? { type: 'text', text: b.text } : { type: b.type },
        ),
      }));
    return envelope(200, 'OK', { posts, total_posts: posts.length });
  }
}

export async function startFakeTumblr(options: FakeTumblrOptions = {}): Promise<FakeTumblr> {
  return new FakeTumblr(options).start();
}
