import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';
import { AuthorizationCodes } from './meta-graph.ts';

/**
 * A fake of Reddit's OAuth API as documented (https://www.reddit.com/dev/api,
 * https://github.com/reddit-archive/reddit/wiki/OAuth2): the consent page and
 * `/api/v1/access_token` (HTTP Basic client auth; a bad code or refresh token answered
 * `{ error: "invalid_grant" }` under HTTP 200, as Reddit does), bearer tokens with scopes
 * (401 `invalid_token`, 403 `insufficient_scope`), a required non-generic User-Agent (429
 * otherwise), `X-Ratelimit-Used/-Remaining/-Reset` on every answer (429 once spent),
 * `/api/v1/me`, `/subreddits/mine/{subscriber,moderator}`, `/r/{sub}/about`,
 * `/api/v1/{sub}/post_requirements`, `/r/{sub}/api/link_flair_v2`, `/r/{sub}/new`,
 * `/api/submit` with `json.errors` tuples, and the media asset lease (`/api/media/asset.json`
 * then a POST to the S3-style form it returns). Both hosts are served by one server: `env()`.
 */
export interface FakeSubreddit {
  name: string;
  /** `any`, `link` (no text posts) or `self` (text posts only). */
  submissionType: 'any' | 'link' | 'self';
  allowImages: boolean;
  allowVideos: boolean;
  flairRequired: boolean;
  bodyPolicy: 'required' | 'notAllowed' | 'none';
  /** Post flair templates; null: post flair is off (link_flair_v2 answers 403). */
  flairs: { id: string; text: string; text_editable: boolean; mod_only?: boolean }[] | null;
  relation: 'subscriber' | 'moderator' | 'none';
  /** `private`: 403 with that reason; `banned`: 404 with that reason. */
  state?: 'private' | 'banned';
}

export interface FakeRedditPost {
  id: string;
  name: string;
  subreddit: string;
  kind: string;
  title: string;
  text?: string;
  url?: string;
  videoPosterUrl?: string;
  flairId?: string;
  flairText?: string;
  nsfw: boolean;
  spoiler: boolean;
  author: string;
  createdUtc: number;
}

export interface FakeRedditAsset {
  id: string;
  key: string;
  mimetype: string;
  filepath: string;
  url?: string;
  bytes?: Buffer;
}

interface Token {
  user: string;
  scopes: string[];
  expiresAt: number;
  refreshToken: string;
}

const genericAgents = /^(node|undici|python-requests|curl|axios|okhttp|java)\b/i;
const scopesOf: [RegExp, string][] = [
  [/^\/api\/v1\/me$/, 'identity'],
  [/^\/subreddits\/mine\//, 'mysubreddits'],
  [/^\/api\/submit$/, 'submit'],
  [/^\/api\/media\/asset\.json$/, 'submit'],
  [/^\/api\/v1\/[^/]+\/post_requirements$/, 'submit'],
  [/^\/r\/[^/]+\/api\/link_flair_v2$/, 'flair'],
  [/^\/r\/[^/]+\/(about|new)$/, 'read'],
];

export class FakeReddit {
  readonly server = new FakeServer();
  readonly clientId = 'fake-reddit-client';
  readonly clientSecret = 'fake-reddit-secret';
  readonly user = { id: 'u1abc', name: 'postwave_tester' };
  readonly subreddits = new Map<string, FakeSubreddit>();
  readonly posts: FakeRedditPost[] = [];
  readonly assets = new Map<string, FakeRedditAsset>();
  /** How the consent page answers. */
  consent: 'approve' | 'deny' = 'approve';
  /** Access token lifetime in seconds (Reddit: 86400). */
  accessTtlSeconds = 86_400;
  refreshes = 0;
  /** The window Reddit counts calls in (600 s, about 100 calls a minute). */
  readonly window = { limit: 1000, used: 0, resetAt: Date.now() + 600_000 };
  /** `json.errors` for the next submit(s), in order. */
  readonly submitErrors: [string, string, string][] = [];
  /** Image and video submits are answered with a websocket URL instead of the post, as Reddit does. */
  mediaAnswersWithWebsocket = true;
  /** The lease names the bucket protocol-relative (`//host/…`), as Reddit does. */
  protocolRelativeAction = false;
  /** The bucket answers 204 without a body (`success_action_status` unset), as S3 may. */
  bucketAnswers204 = false;
  readonly #tokens = new Map<string, Token>();
  readonly #refreshTokens = new Map<string, { user: string; scopes: string[]; revoked: boolean }>();
  readonly #codes = new AuthorizationCodes<{ redirectUri: string; scopes: string[] }>();
  #ids = 0;

  constructor() {
    for (const sub of defaultSubreddits()) this.subreddits.set(sub.name.toLowerCase(), sub);
    this.server
      .route('GET', /^\/api\/v1\/authorize$/, (r) => this.#authorize(r))
      .route('POST', /^\/api\/v1\/access_token$/, (r) => this.#accessToken(r))
      .route('POST', /^\/reddit-uploaded-media$/, (r) => this.#s3Upload(r))
      .route('GET', /^\/api\/v1\/me$/, (r) => this.#api(r, () => this.#me()))
      .route('GET', /^\/subreddits\/mine\/(subscriber|moderator)$/, (r, m) =>
        this.#api(r, () => this.#mine(r, m[1] as 'subscriber' | 'moderator')),
      )
      .route('GET', /^\/r\/([^/]+)\/about$/, (r, m) => this.#api(r, () => this.#about(m[1]!)))
      .route('GET', /^\/api\/v1\/([^/]+)\/post_requirements$/, (r, m) =>
        this.#api(r, () => this.#requirements(m[1]!)),
      )
      .route('GET', /^\/r\/([^/]+)\/api\/link_flair_v2$/, (r, m) => this.#api(r, () => this.#flairs(m[1]!)))
      .route('GET', /^\/r\/([^/]+)\/new$/, (r, m) => this.#api(r, () => this.#new(m[1]!)))
      .route('POST', /^\/api\/media\/asset\.json$/, (r) => this.#api(r, () => this.#lease(r)))
      .route('POST', /^\/api\/submit$/, (r) => this.#api(r, () => this.#submit(r)));
  }

  get url(): string {
    return this.server.url;
  }

  env(): Record<string, string> {
    return {
      REDDIT_API_URL: this.url,
      REDDIT_AUTH_URL: this.url,
      REDDIT_CLIENT_ID: this.clientId,
      REDDIT_CLIENT_SECRET: this.clientSecret,
      REDDIT_USER_AGENT: 'test:postwave:1.0 (by /u/postwave_tester)',
    };
  }

  subreddit(name: string): FakeSubreddit {
    const sub = this.subreddits.get(name.toLowerCase());
    if (!sub) throw new Error(`no fake subreddit ${name}`);
    return sub;
  }

  /** Credentials as an accounts file holds them: a fresh access token, unless `expired`. */
  credentials(options: { expired?: boolean; scopes?: string[] } = {}): Record<string, unknown> {
    const scopes = options.scopes ?? ['identity', 'submit', 'read', 'flair', 'mysubreddits'];
    const refreshToken = this.#newRefreshToken(scopes);
    const accessToken = this.#issue(refreshToken, scopes).access_token;
    if (options.expired) this.#tokens.delete(accessToken);
    return {
      accessToken,
      refreshToken,
      ...(options.expired ? { expiresAt: new Date(Date.now() - 1000).toISOString() } : {}),
    };
  }

  /** Every access token stops working (they expired); refresh tokens still work. */
  expireAccessTokens(): void {
    this.#tokens.clear();
  }

  /** The user removed the app: every token, refresh tokens too, stops working. */
  revokeAll(): void {
    this.#tokens.clear();
    for (const grant of this.#refreshTokens.values()) grant.revoked = true;
  }

  /** The current window: `remaining` calls left, resetting in `resetSeconds`. */
  setRateWindow(remaining: number, resetSeconds: number): void {
    this.window.used = this.window.limit - remaining;
    this.window.resetAt = Date.now() + resetSeconds * 1000;
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

  #newRefreshToken(scopes: string[]): string {
    const token = `${++this.#ids}-${randomBytes(16).toString('base64url')}`;
    this.#refreshTokens.set(token, { user: this.user.name, scopes, revoked: false });
    return token;
  }

  #issue(refreshToken: string, scopes: string[]): Record<string, unknown> & { access_token: string } {
    const access = `${++this.#ids}-${randomBytes(20).toString('base64url')}`;
    this.#tokens.set(access, {
      user: this.user.name,
      scopes,
      refreshToken,
      expiresAt: Date.now() + this.accessTtlSeconds * 1000,
    });
    return {
      access_token: access,
      token_type: 'bearer',
      expires_in: this.accessTtlSeconds,
      scope: scopes.join(' '),
      refresh_token: refreshToken,
    };
  }

  // --- www.reddit.com ----------------------------------------------------------------------------

  #authorize(request: RecordedRequest): FakeResponse {
    const q = request.query;
    if (q.get('client_id') !== this.clientId) return { status: 400, text: 'invalid client_id' };
    const redirectUri = q.get('redirect_uri');
    if (!redirectUri) return { status: 400, text: 'redirect_uri is required' };
    const back = new URL(redirectUri);
    back.searchParams.set('state', q.get('state') ?? '');
    const scopes = (q.get('scope') ?? '').split(/[\s,]+/).filter(Boolean);
    if (q.get('response_type') !== 'code') back.searchParams.set('error', 'unsupported_response_type');
    else if (!['temporary', 'permanent'].includes(q.get('duration') ?? ''))
      back.searchParams.set('error', 'invalid_request');
    else if (scopes.length === 0) back.searchParams.set('error', 'invalid_scope');
    else if (this.consent === 'deny') back.searchParams.set('error', 'access_denied');
    else {
      const code = randomBytes(16).toString('base64url');
      this.#codes.issue(code, { redirectUri, scopes });
      back.searchParams.set('code', code);
    }
    return { status: 302, headers: { location: back.toString() } };
  }

  #accessToken(request: RecordedRequest): FakeResponse {
    const agent = String(request.headers['user-agent'] ?? '');
    if (!agent || genericAgents.test(agent)) return { status: 429, text: 'Too Many Requests' };
    const basic = String(request.headers.authorization ?? '');
    const [id, secret] = basic.startsWith('Basic ')
      ? Buffer.from(basic.slice(6), 'base64').toString().split(':')
      : [];
    if (id !== this.clientId || secret !== this.clientSecret)
      return { status: 401, json: { message: 'Unauthorized', error: 401 } };
    const form = (request.body ?? {}) as Record<string, string>;
    if (form.grant_type === 'authorization_code') {
      const redeemed = this.#codes.redeem(form.code, form.redirect_uri);
      if ('problem' in redeemed) return { json: { error: 'invalid_grant' } };
      return { json: this.#issue(this.#newRefreshToken(redeemed.grant.scopes), redeemed.grant.scopes) };
    }
    if (form.grant_type === 'refresh_token') {
      const grant = this.#refreshTokens.get(form.refresh_token ?? '');
      if (!grant || grant.revoked) return { json: { error: 'invalid_grant' } };
      this.refreshes++;
      return { json: this.#issue(form.refresh_token!, grant.scopes) };
    }
    return { status: 400, json: { error: 'unsupported_grant_type' } };
  }

  /** The S3-style bucket: every field of the lease, then the file; 201 with the object's Location. */
  async #s3Upload(request: RecordedRequest): Promise<FakeResponse> {
    const fields = (request.body ?? {}) as Record<string, string>;
    const asset = [...this.assets.values()].find((a) => a.key === fields.key);
    const file = request.files.file;
    if (!asset || fields.policy !== `policy-${asset.id}` || fields['Content-Type'] !== asset.mimetype)
      return s3Error(403, 'AccessDenied', 'Invalid according to Policy: Policy Condition failed');
    if (!file) return s3Error(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
    const location = `${this.url}/reddit-uploaded-media/${encodeURIComponent(asset.key)}`;
    asset.url = `${this.url}/reddit-uploaded-media/${asset.key}`;
    asset.bytes = Buffer.from(await file.arrayBuffer());
    if (this.bucketAnswers204) return { status: 204 };
    return {
      status: 201,
      headers: { 'content-type': 'application/xml', location },
      text: `<?xml version="1.0" encoding="UTF-8"?>\n<PostResponse><Location>${location}</Location><Bucket>reddit-uploaded-media</Bucket><Key>${asset.key}</Key><ETag>"${asset.id}"</ETag></PostResponse>`,
    };
  }

  // --- oauth.reddit.com --------------------------------------------------------------------------

  /** User-Agent, bearer token, scope and rate-limit window checks around every API call. */
  async #api(
    request: RecordedRequest,
    handle: (token: Token) => FakeResponse | Promise<FakeResponse>,
  ): Promise<FakeResponse> {
    const agent = String(request.headers['user-agent'] ?? '');
    if (!agent || genericAgents.test(agent)) return { status: 429, text: 'Too Many Requests' };
    const now = Date.now();
    if (this.window.resetAt <= now) {
      this.window.used = 0;
      this.window.resetAt = now + 600_000;
    }
    const headers = (): Record<string, string> => ({
      'x-ratelimit-used': String(this.window.used),
      'x-ratelimit-remaining': (this.window.limit - this.window.used).toFixed(1),
      'x-ratelimit-reset': String(Math.max(0, Math.ceil((this.window.resetAt - Date.now()) / 1000))),
    });
    if (this.window.used >= this.window.limit)
      return { status: 429, headers: headers(), json: { message: 'Too Many Requests', error: 429 } };
    const bearer = String(request.headers.authorization ?? '').replace(/^bearer /i, '');
    const token = this.#tokens.get(bearer);
    if (!token || token.expiresAt < now)
      return {
        status: 401,
        headers: { 'www-authenticate': 'Bearer realm="reddit", error="invalid_token"' },
        json: { message: 'Unauthorized', error: 401 },
      };
    this.window.used++;
    const scope = scopesOf.find(([pattern]) => pattern.test(request.path))?.[1];
    if (scope && !token.scopes.includes(scope))
      return {
        status: 403,
        headers: { ...headers(), 'www-authenticate': 'Bearer realm="reddit", error="insufficient_scope"' },
        json: { message: 'Forbidden', error: 403 },
      };
    const answer = await handle(token);
    return { ...answer, headers: { ...headers(), ...answer.headers } };
  }

  #me(): FakeResponse {
    return {
      json: {
        id: this.user.id,
        name: this.user.name,
        icon_img: 'https://styles.redditmedia.example/avatar.png?width=256&s=abc',
        subreddit: { display_name: `u_${this.user.name}`, subreddit_type: 'user' },
      },
    };
  }

  #mine(request: RecordedRequest, relation: 'subscriber' | 'moderator'): FakeResponse {
    const all = [...this.subreddits.values()].filter(
      (s) => s.relation === relation || (relation === 'subscriber' && s.relation === 'moderator'),
    );
    const limit = Math.min(100, Number(request.query.get('limit') ?? 25));
    const after = request.query.get('after');
    const start = after ? all.findIndex((s) => `t5_${s.name}` === after) + 1 : 0;
    const page = all.slice(start, start + limit);
    return {
      json: {
        kind: 'Listing',
        data: {
          after: start + limit < all.length ? `t5_${page.at(-1)!.name}` : null,
          children: page.map((s) => ({
            kind: 't5',
            data: { display_name: s.name, title: `The ${s.name} community`, subreddit_type: 'public' },
          })),
        },
      },
    };
  }

  #find(name: string): FakeSubreddit | FakeResponse {
    const sub = this.subreddits.get(decodeURIComponent(name).toLowerCase());
    if (!sub) return { status: 404, json: { message: 'Not Found', error: 404 } };
    if (sub.state === 'private')
      return { status: 403, json: { reason: 'private', message: 'Forbidden', error: 403 } };
    if (sub.state === 'banned')
      return { status: 404, json: { reason: 'banned', message: 'Not Found', error: 404 } };
    return sub;
  }

  #about(name: string): FakeResponse {
    const sub = this.#find(name);
    if (!('submissionType' in sub)) return sub;
    return {
      json: {
        kind: 't5',
        data: {
          display_name: sub.name,
          submission_type: sub.submissionType,
          allow_images: sub.allowImages,
          allow_videos: sub.allowVideos,
          link_flair_enabled: sub.flairs !== null,
          over18: false,
        },
      },
    };
  }

  #requirements(name: string): FakeResponse {
    const sub = this.#find(name);
    if (!('submissionType' in sub)) return sub;
    return {
      json: {
        is_flair_required: sub.flairRequired,
        body_restriction_policy: sub.bodyPolicy,
        title_text_max_length: null,
        title_text_min_length: null,
        domain_blacklist: [],
        link_restriction_policy: 'none',
      },
    };
  }

  #flairs(name: string): FakeResponse {
    const sub = this.#find(name);
    if (!('submissionType' in sub)) return sub;
    if (sub.flairs === null) return { status: 403, json: { message: 'Forbidden', error: 403 } };
    return {
      json: sub.flairs.map((f) => ({
        type: 'text',
        text_editable: f.text_editable,
        allowable_content: 'all',
        text: f.text,
        max_emojis: 10,
        text_color: 'dark',
        mod_only: f.mod_only ?? false,
        css_class: '',
        richtext: [],
        background_color: '',
        id: f.id,
      })),
    };
  }

  #new(name: string): FakeResponse {
    const sub = this.#find(name);
    if (!('submissionType' in sub)) return sub;
    const posts = this.posts.filter((p) => p.subreddit === sub.name).reverse();
    return {
      json: {
        kind: 'Listing',
        data: {
          after: null,
          children: posts.map((p) => ({
            kind: 't3',
            data: {
              id: p.id,
              name: p.name,
              title: p.title,
              author: p.author,
              subreddit: p.subreddit,
              created_utc: p.createdUtc,
              permalink: `/r/${p.subreddit}/comments/${p.id}/${slug(p.title)}/`,
            },
          })),
        },
      },
    };
  }

  #lease(request: RecordedRequest): FakeResponse {
    const form = (request.body ?? {}) as Record<string, string>;
    const types = ['image/png', 'image/jpeg', 'image/gif', 'video/mp4', 'video/quicktime'];
    if (!form.filepath || !types.includes(form.mimetype ?? ''))
      return { status: 400, json: { message: 'Bad Request', error: 400 } };
    const id = randomBytes(6).toString('hex');
    const key = `rte_images/${id}`;
    this.assets.set(id, { id, key, mimetype: form.mimetype!, filepath: form.filepath });
    return {
      json: {
        args: {
          action: `${this.protocolRelativeAction ? this.url.replace(/^https?:/, '') : this.url}/reddit-uploaded-media`,
          fields: [
            { name: 'acl', value: 'private' },
            { name: 'key', value: key },
            { name: 'X-Amz-Credential', value: 'AKIAFAKE/20260101/us-east-1/s3/aws4_request' },
            { name: 'X-Amz-Algorithm', value: 'AWS4-HMAC-SHA256' },
            { name: 'X-Amz-Date', value: '20260101T000000Z' },
            { name: 'success_action_status', value: '201' },
            { name: 'Content-Type', value: form.mimetype! },
            { name: 'x-amz-storage-class', value: 'STANDARD' },
            { name: 'x-amz-meta-ext', value: form.filepath!.split('.').pop() ?? '' },
            { name: 'policy', value: `policy-${id}` },
            { name: 'X-Amz-Signature', value: 'fake' },
          ],
        },
        asset: {
          asset_id: id,
          processing_state: 'incomplete',
          payload: { filepath: form.filepath },
          websocket_url: `wss://ws.fake.redditmedia.example/rte_images/${id}?m=fake`,
        },
      },
    };
  }

  #submit(request: RecordedRequest): FakeResponse {
    const form = (request.body ?? {}) as Record<string, string>;
    const fail = (code: string, message: string, field: string): FakeResponse => ({
      json: { json: { errors: [[code, message, field]] } },
    });
    const injected = this.submitErrors.shift();
    if (injected) return fail(...injected);
    if (form.api_type !== 'json') return { text: 'api_type=json expected' };
    const sub = this.subreddits.get((form.sr ?? '').toLowerCase());
    if (!sub) return fail('SUBREDDIT_NOEXIST', "that subreddit doesn't exist", 'sr');
    if (sub.state) return fail('SUBREDDIT_NOTALLOWED', "you aren't allowed to post there.", 'sr');
    const kind = form.kind ?? '';
    if (!['self', 'link', 'image', 'video'].includes(kind))
      return fail('INVALID_OPTION', 'that option is not valid', 'kind');
    if (kind === 'self' && sub.submissionType === 'link')
      return fail('NO_SELFS', "This community doesn't allow text posts.", 'sr');
    if (kind !== 'self' && sub.submissionType === 'self')
      return fail('NO_LINKS', "This community doesn't allow links.", 'sr');
    if (kind === 'image' && !sub.allowImages)
      return fail('NO_IMAGES', "This community doesn't allow images.", 'sr');
    if (kind === 'video' && !sub.allowVideos)
      return fail('NO_VIDEOS', "This community doesn't allow videos.", 'sr');
    const title = form.title ?? '';
    if (!title.trim()) return fail('NO_TEXT', 'we need something here', 'title');
    if ([...title].length > 300) return fail('TOO_LONG', 'this is too long (max: 300)', 'title');
    if (kind === 'self' && [...(form.text ?? '')].length > 40_000)
      return fail('TOO_LONG', 'this is too long (max: 40000)', 'text');
    if (sub.flairRequired && !form.flair_id)
      return fail('SUBMIT_VALIDATION_FLAIR_REQUIRED', 'Your post must contain post flair.', 'flair');
    if (form.flair_id && !sub.flairs?.some((f) => f.id === form.flair_id))
      return fail('BAD_FLAIR_TEMPLATE_ID', 'that flair template does not exist', 'flair');
    if (kind === 'link' && !/^https?:\/\/\S+$/.test(form.url ?? ''))
      return fail('BAD_URL', 'you should check that url', 'url');
    if (kind === 'image' || kind === 'video') {
      const asset = [...this.assets.values()].find((a) => a.url && a.url === form.url);
      if (!asset?.bytes) return fail('BAD_URL', 'you should check that url', 'url');
      if (kind === 'video') {
        const poster = [...this.assets.values()].find((a) => a.url && a.url === form.video_poster_url);
        if (!poster?.bytes)
          return fail('NO_VIDEO_POSTER', 'a video post needs a poster image', 'video_poster_url');
      }
    }
    const id = randomBytes(4).toString('hex').slice(0, 7);
    const post: FakeRedditPost = {
      id,
      name: `t3_${id}`,
      subreddit: sub.name,
      kind,
      title,
      ...(form.text !== undefined ? { text: form.text } : {}),
      ...(form.url !== undefined ? { url: form.url } : {}),
      ...(form.video_poster_url ? { videoPosterUrl: form.video_poster_url } : {}),
      ...(form.flair_id ? { flairId: form.flair_id } : {}),
      ...(form.flair_text ? { flairText: form.flair_text } : {}),
      nsfw: form.nsfw === 'true',
      spoiler: form.spoiler === 'true',
      author: this.user.name,
      createdUtc: Date.now() / 1000,
    };
    this.posts.push(post);
    if ((kind === 'image' || kind === 'video') && this.mediaAnswersWithWebsocket)
      return {
        json: {
          json: {
            errors: [],
            data: {
              user_submitted_page: `https://www.reddit.com/user/${this.user.name}/submitted/`,
              websocket_url: `wss://ws.fake.redditmedia.example/rte_images/${id}?m=fake`,
            },
          },
        },
      };
    return {
      json: {
        json: {
          errors: [],
          data: {
            url: `https://www.reddit.com/r/${sub.name}/comments/${id}/${slug(title)}/`,
            drafts_count: 0,
            id,
            name: `t3_${id}`,
          },
        },
      },
    };
  }
}

function defaultSubreddits(): FakeSubreddit[] {
  const base = {
    submissionType: 'any' as const,
    allowImages: true,
    allowVideos: true,
    flairRequired: false,
    bodyPolicy: 'none' as const,
    flairs: null,
    relation: 'subscriber' as const,
  };
  return [
    { ...base, name: 'postwave', relation: 'moderator' },
    {
      ...base,
      name: 'flairland',
      flairRequired: true,
      flairs: [
        { id: 'f-news-0001', text: 'News', text_editable: false },
        { id: 'f-free-0002', text: 'Discussion', text_editable: true },
      ],
    },
    { ...base, name: 'linksonly', submissionType: 'link' },
    { ...base, name: 'textonly', submissionType: 'self' },
    { ...base, name: 'noimages', allowImages: false, allowVideos: false },
    { ...base, name: 'secretclub', relation: 'none', state: 'private' },
  ];
}

function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 50);
}

function s3Error(status: number, code: string, message: string): FakeResponse {
  return {
    status,
    headers: { 'content-type': 'application/xml' },
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  };
}

export async function startFakeReddit(): Promise<FakeReddit> {
  const fake = new FakeReddit();
  await fake.start();
  return fake;
}
