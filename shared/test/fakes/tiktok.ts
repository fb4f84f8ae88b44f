import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';
import { AuthorizationCodes, fetchMedia } from './meta-graph.ts';

/**
 * A fake of TikTok's Login Kit (OAuth v2) and Content Posting API (direct post), as documented:
 * the consent page (`/v2/auth/authorize/`), `POST /v2/oauth/token/` (codes; refresh tokens,
 * rotated; 24 h access, 365 d refresh), `GET /v2/user/info/`, `creator_info/query`,
 * `video/init` (FILE_UPLOAD with the chunk rules, or PULL_FROM_URL), chunked `PUT` uploads with
 * `Content-Range` (206 until the last chunk, then 201), `content/init` for photo posts pulled by
 * URL, and `status/fetch` moving through PROCESSING_UPLOAD / PROCESSING_DOWNLOAD to
 * PUBLISH_COMPLETE or FAILED. Errors use TikTok's envelope `{ data, error: { code, message, log_id } }`;
 * an unaudited app may only post SELF_ONLY.
 */
export interface FakeTikTokOptions {
  clientKey?: string;
  clientSecret?: string;
  creator?: Partial<FakeTikTokCreator>;
  /** TikTok has audited the app (default false: only SELF_ONLY posts, as for a new app). */
  audited?: boolean;
  accessTokenTtlSeconds?: number;
  /** Status checks a post stays processing after its media arrived. */
  processingPolls?: number;
}

export interface FakeTikTokCreator {
  openId: string;
  displayName: string;
  username: string;
  avatarUrl: string;
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
}

export interface FakeTikTokPost {
  publishId: string;
  openId: string;
  kind: 'video' | 'photo';
  source: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  postInfo: Record<string, unknown>;
  /** FILE_UPLOAD: the announced size and chunking, and what arrived. */
  videoSize?: number;
  chunkSize?: number;
  totalChunkCount?: number;
  chunks: { range: string; bytes: number; contentType: string }[];
  received: Buffer[];
  /** PULL_FROM_URL: the URLs, and what was downloaded from them. */
  urls: string[];
  downloaded: { url: string; bytes: number; contentType: string }[];
  status: 'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'PUBLISH_COMPLETE' | 'FAILED';
  failReason?: string;
  pollsLeft: number;
  postId?: string;
}

interface Token {
  openId: string;
  scopes: string[];
  expiresAt: number;
  valid: boolean;
}

const fiveMb = 5 * 1024 * 1024;
const maxChunk = 64_000_000;
const maxFinalChunk = 128_000_000;
const photoRefs = new Set(['image/jpeg', 'image/webp']);

const logId = () => `2026${randomBytes(10).toString('hex').toUpperCase()}`;

/** TikTok's envelope for an error answer. */
export function tiktokErrorResponse(status: number, code: string, message: string): FakeResponse {
  return { status, json: { data: {}, error: { code, message, log_id: logId() } } };
}

function ok(data: unknown): FakeResponse {
  return { json: { data, error: { code: 'ok', message: '', log_id: logId() } } };
}

function tokenError(error: string, description: string): FakeResponse {
  return { status: 400, json: { error, error_description: description, log_id: logId() } };
}

export class FakeTikTok {
  readonly server = new FakeServer({ maxBodyBytes: 140 * 1024 * 1024 });
  readonly clientKey: string;
  readonly clientSecret: string;
  readonly creator: FakeTikTokCreator;
  readonly posts: FakeTikTokPost[] = [];
  audited: boolean;
  accessTokenTtlSeconds: number;
  processingPolls: number;
  consent: 'approve' | 'deny' = 'approve';
  /** The next publish fails with this `fail_reason` once its media arrived. */
  nextFailReason: string | undefined;
  /** PULL_FROM_URL only from these URL prefixes (TikTok's verified domains); undefined: any. */
  verifiedUrlPrefixes: string[] | undefined;
  /** Refresh tokens issued so far that were refused (spent or revoked), for assertions. */
  refusedRefreshes = 0;
  readonly #access = new Map<string, Token>();
  readonly #refresh = new Map<string, Token>();
  readonly #codes = new AuthorizationCodes<{ redirectUri: string; scopes: string[] }>();
  readonly #uploads = new Map<string, FakeTikTokPost>();

  constructor(options: FakeTikTokOptions = {}) {
    this.clientKey = options.clientKey ?? 'awfaketiktokkey';
    this.clientSecret = options.clientSecret ?? 'fake-tiktok-client-secret';
    this.creator = {
      openId: '-000OPENID-fake-creator',
      displayName: 'Fake Creator',
      username: 'fakecreator',
      avatarUrl: 'https://p16-sign.tiktokcdn.example/avatar.jpeg',
      privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      commentDisabled: false,
      duetDisabled: false,
      stitchDisabled: false,
      maxVideoPostDurationSec: 600,
      ...options.creator,
    };
    this.audited = options.audited ?? false;
    this.accessTokenTtlSeconds = options.accessTokenTtlSeconds ?? 86_400;
    this.processingPolls = options.processingPolls ?? 1;
    this.server
      .route('GET', /^\/v2\/auth\/authorize\/?$/, (req) => this.#authorize(req))
      .route('POST', /^\/v2\/oauth\/token\/$/, (req) => this.#token(req))
      .route('POST', /^\/v2\/oauth\/revoke\/$/, (req) => this.#revoke(req))
      .route('GET', /^\/v2\/user\/info\/$/, (req) => this.#userInfo(req))
      .route('POST', /^\/v2\/post\/publish\/creator_info\/query\/$/, (req) => this.#creatorInfo(req))
      .route('POST', /^\/v2\/post\/publish\/video\/init\/$/, (req) => this.#videoInit(req))
      .route('POST', /^\/v2\/post\/publish\/content\/init\/$/, (req) => this.#contentInit(req))
      .route('PUT', /^\/upload\/video\/([\w-]+)$/, (req, m) => this.#chunk(req, m[1]!))
      .route('POST', /^\/v2\/post\/publish\/status\/fetch\/$/, (req) => this.#status(req));
  }

  get url(): string {
    return this.server.url;
  }

  get requests(): RecordedRequest[] {
    return this.server.requests;
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  env(): Record<string, string> {
    return {
      TIKTOK_API_URL: this.url,
      TIKTOK_OAUTH_AUTHORIZE_URL: `${this.url}/v2/auth/authorize/`,
      TIKTOK_CLIENT_KEY: this.clientKey,
      TIKTOK_CLIENT_SECRET: this.clientSecret,
    };
  }

  /** Accounts-file credentials for the creator, as the sign-in would have stored them. */
  credentials(options: { accessTtlSeconds?: number } = {}): Record<string, string> {
    const grant = this.#issue(['user.info.basic', 'video.publish', 'video.upload'], options.accessTtlSeconds);
    return {
      accessToken: grant.access_token,
      refreshToken: grant.refresh_token,
      expiresAt: new Date(Date.now() + grant.expires_in * 1000).toISOString(),
    };
  }

  /** The creator removed the app: every token stops working. */
  revokeAll(): void {
    for (const token of [...this.#access.values(), ...this.#refresh.values()]) token.valid = false;
  }

  /** Ends an access token's life now (so the next call is refused as expired). */
  expireAccessToken(accessToken: string): void {
    const token = this.#access.get(accessToken);
    if (token) token.expiresAt = Date.now() - 1;
  }

  calls(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  #issue(scopes: string[], ttlSeconds = this.accessTokenTtlSeconds) {
    const access = `act.${randomBytes(24).toString('hex')}!6036.va`;
    const refresh = `rft.${randomBytes(24).toString('hex')}!6036.va`;
    const now = Date.now();
    this.#access.set(access, {
      openId: this.creator.openId,
      scopes,
      expiresAt: now + ttlSeconds * 1000,
      valid: true,
    });
    this.#refresh.set(refresh, {
      openId: this.creator.openId,
      scopes,
      expiresAt: now + 365 * 86_400_000,
      valid: true,
    });
    return {
      access_token: access,
      expires_in: ttlSeconds,
      open_id: this.creator.openId,
      refresh_expires_in: 365 * 86_400,
      refresh_token: refresh,
      scope: scopes.join(','),
      token_type: 'Bearer',
    };
  }

  #authorize(req: RecordedRequest): FakeResponse {
    const q = req.query;
    if (q.get('client_key') !== this.clientKey) return { status: 400, text: 'client_key is invalid' };
    const redirectUri = q.get('redirect_uri');
    if (!redirectUri || q.get('response_type') !== 'code') return { status: 400, text: 'invalid request' };
    const back = new URL(redirectUri);
    back.searchParams.set('state', q.get('state') ?? '');
    if (this.consent === 'deny') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user denied the request');
    } else {
      const code = randomBytes(24).toString('base64url');
      this.#codes.issue(code, { redirectUri, scopes: (q.get('scope') ?? '').split(',').filter(Boolean) });
      back.searchParams.set('code', code);
      back.searchParams.set('scopes', q.get('scope') ?? '');
    }
    return { status: 302, headers: { location: back.toString() } };
  }

  #token(req: RecordedRequest): FakeResponse {
    const form = (req.body ?? {}) as Record<string, string>;
    if (form.client_key !== this.clientKey || form.client_secret !== this.clientSecret)
      return tokenError('invalid_client', 'Client key or secret is incorrect.');
    if (form.grant_type === 'authorization_code') {
      const redeemed = this.#codes.redeem(decodeURIComponent(form.code ?? ''), form.redirect_uri);
      if ('problem' in redeemed) return tokenError('invalid_grant', 'Authorization code is expired.');
      return { json: this.#issue(redeemed.grant.scopes) };
    }
    if (form.grant_type === 'refresh_token') {
      const token = this.#refresh.get(form.refresh_token ?? '');
      if (!token?.valid || token.expiresAt < Date.now()) {
        this.refusedRefreshes++;
        return tokenError('invalid_grant', 'Refresh token is invalid or expired.');
      }
      // The answer carries a new refresh token; the spent one stops working.
      token.valid = false;
      return { json: this.#issue(token.scopes) };
    }
    return tokenError('unsupported_grant_type', 'The grant type is not supported.');
  }

  #revoke(req: RecordedRequest): FakeResponse {
    const form = (req.body ?? {}) as Record<string, string>;
    const token = this.#access.get(form.token ?? '');
    if (token) token.valid = false;
    return { json: {} };
  }

  /** The caller's token, or TikTok's refusal. */
  #auth(req: RecordedRequest, scope: string): Token | FakeResponse {
    const header = String(req.headers.authorization ?? '');
    const token = header.startsWith('Bearer ') ? this.#access.get(header.slice(7)) : undefined;
    if (!token?.valid || token.expiresAt <= Date.now())
      return tiktokErrorResponse(
        401,
        'access_token_invalid',
        'The access token is invalid or not found in the request.',
      );
    if (!token.scopes.includes(scope))
      return tiktokErrorResponse(
        401,
        'scope_not_authorized',
        `The user did not authorize the scope required for completing this request.`,
      );
    return token;
  }

  #json(req: RecordedRequest): Record<string, unknown> | FakeResponse {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return tiktokErrorResponse(
        400,
        'invalid_params',
        'Content-Type must be application/json; charset=UTF-8',
      );
    return (req.body ?? {}) as Record<string, unknown>;
  }

  #userInfo(req: RecordedRequest): FakeResponse {
    const token = this.#auth(req, 'user.info.basic');
    if (!('openId' in token)) return token;
    const fields = (req.query.get('fields') ?? '').split(',');
    const all: Record<string, string> = {
      open_id: this.creator.openId,
      union_id: `union-${this.creator.openId}`,
      avatar_url: this.creator.avatarUrl,
      display_name: this.creator.displayName,
    };
    return ok({ user: Object.fromEntries(Object.entries(all).filter(([k]) => fields.includes(k))) });
  }

  #creatorInfo(req: RecordedRequest): FakeResponse {
    const token = this.#auth(req, 'video.publish');
    if (!('openId' in token)) return token;
    return ok({
      creator_avatar_url: this.creator.avatarUrl,
      creator_username: this.creator.username,
      creator_nickname: this.creator.displayName,
      privacy_level_options: this.creator.privacyLevelOptions,
      comment_disabled: this.creator.commentDisabled,
      duet_disabled: this.creator.duetDisabled,
      stitch_disabled: this.creator.stitchDisabled,
      max_video_post_duration_sec: this.creator.maxVideoPostDurationSec,
    });
  }

  /** The checks TikTok makes of `post_info` on every direct post. */
  #postInfoProblem(info: Record<string, unknown>, titleLimit: number): FakeResponse | undefined {
    const level = info.privacy_level;
    if (typeof level !== 'string' || !this.creator.privacyLevelOptions.includes(level))
      return tiktokErrorResponse(
        400,
        'privacy_level_option_mismatch',
        'privacy_level is not one of the creator’s options',
      );
    if (!this.audited && level !== 'SELF_ONLY')
      return tiktokErrorResponse(
        403,
        'unaudited_client_can_only_post_to_private_accounts',
        'Unaudited clients can only post with SELF_ONLY visibility.',
      );
    if (typeof info.title === 'string' && info.title.length > titleLimit)
      return tiktokErrorResponse(400, 'invalid_params', `title exceeds ${titleLimit} characters`);
    return undefined;
  }

  #unverified(url: string): boolean {
    return this.verifiedUrlPrefixes !== undefined && !this.verifiedUrlPrefixes.some((p) => url.startsWith(p));
  }

  #newPost(
    token: Token,
    kind: 'video' | 'photo',
    source: FakeTikTokPost['source'],
    info: Record<string, unknown>,
  ): FakeTikTokPost {
    const prefix = kind === 'video' ? (source === 'FILE_UPLOAD' ? 'v_pub_file' : 'v_pub_url') : 'p_pub_url';
    const post: FakeTikTokPost = {
      publishId: `${prefix}~v2-1.${randomBytes(8).readBigUInt64BE() >> 1n}`,
      openId: token.openId,
      kind,
      source,
      postInfo: info,
      chunks: [],
      received: [],
      urls: [],
      downloaded: [],
      status: source === 'FILE_UPLOAD' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD',
      pollsLeft: this.processingPolls,
    };
    this.posts.push(post);
    return post;
  }

  #videoInit(req: RecordedRequest): FakeResponse {
    const token = this.#auth(req, 'video.publish');
    if (!('openId' in token)) return token;
    const body = this.#json(req);
    if ('status' in body && typeof body.status === 'number') return body as FakeResponse;
    const info = ((body as Record<string, unknown>).post_info ?? {}) as Record<string, unknown>;
    const source = ((body as Record<string, unknown>).source_info ?? {}) as Record<string, unknown>;
    const problem = this.#postInfoProblem(info, 2200);
    if (problem) return problem;
    if (source.source === 'PULL_FROM_URL') {
      const url = String(source.video_url ?? '');
      if (!/^https?:\/\//.test(url))
        return tiktokErrorResponse(400, 'invalid_params', 'video_url is invalid');
      if (this.#unverified(url))
        return tiktokErrorResponse(
          403,
          'url_ownership_unverified',
          'The domain or URL prefix of video_url is not verified.',
        );
      const post = this.#newPost(token, 'video', 'PULL_FROM_URL', info);
      post.urls.push(url);
      return ok({ publish_id: post.publishId });
    }
    if (source.source !== 'FILE_UPLOAD')
      return tiktokErrorResponse(400, 'invalid_params', 'source is invalid');
    const size = Number(source.video_size);
    const chunkSize = Number(source.chunk_size);
    const count = Number(source.total_chunk_count);
    if (!Number.isSafeInteger(size) || size <= 0 || size > 4 * 1024 ** 3)
      return tiktokErrorResponse(400, 'invalid_params', 'video_size is invalid');
    if (count === 1) {
      // Under 5 MB a video goes whole; up to 64 MB it may.
      if (chunkSize !== size || size > maxChunk)
        return tiktokErrorResponse(400, 'invalid_params', 'chunk_size is invalid for a single-chunk upload');
    } else if (
      !Number.isSafeInteger(chunkSize) ||
      chunkSize < fiveMb ||
      chunkSize > maxChunk ||
      size < fiveMb
    ) {
      return tiktokErrorResponse(400, 'invalid_params', 'chunk_size must be between 5 MB and 64 MB');
    } else if (count !== Math.floor(size / chunkSize) || count > 1000) {
      return tiktokErrorResponse(400, 'invalid_params', 'total_chunk_count is invalid');
    } else if (size - (count - 1) * chunkSize > maxFinalChunk) {
      return tiktokErrorResponse(400, 'invalid_params', 'the final chunk would exceed 128 MB');
    }
    const post = this.#newPost(token, 'video', 'FILE_UPLOAD', info);
    Object.assign(post, { videoSize: size, chunkSize, totalChunkCount: count });
    const uploadId = randomBytes(12).toString('hex');
    this.#uploads.set(uploadId, post);
    return ok({
      publish_id: post.publishId,
      upload_url: `${this.url}/upload/video/${uploadId}?upload_token=${randomBytes(8).toString('hex')}`,
    });
  }

  #contentInit(req: RecordedRequest): FakeResponse {
    const token = this.#auth(req, 'video.publish');
    if (!('openId' in token)) return token;
    const body = this.#json(req);
    if ('status' in body && typeof body.status === 'number') return body as FakeResponse;
    const b = body as Record<string, unknown>;
    const info = (b.post_info ?? {}) as Record<string, unknown>;
    const source = (b.source_info ?? {}) as Record<string, unknown>;
    if (b.media_type !== 'PHOTO' || (b.post_mode !== 'DIRECT_POST' && b.post_mode !== 'MEDIA_UPLOAD'))
      return tiktokErrorResponse(400, 'invalid_params', 'media_type or post_mode is invalid');
    const problem = this.#postInfoProblem(info, 90);
    if (problem) return problem;
    if (typeof info.description === 'string' && info.description.length > 4000)
      return tiktokErrorResponse(400, 'invalid_params', 'description exceeds 4000 characters');
    const images = source.photo_images;
    if (
      source.source !== 'PULL_FROM_URL' ||
      !Array.isArray(images) ||
      images.length < 1 ||
      images.length > 35
    )
      return tiktokErrorResponse(400, 'invalid_params', 'photo_images must hold 1 to 35 URLs');
    const cover = Number(source.photo_cover_index ?? 0);
    if (!Number.isInteger(cover) || cover < 0 || cover >= images.length)
      return tiktokErrorResponse(400, 'invalid_params', 'photo_cover_index is invalid');
    const unverified = images.find((url) => this.#unverified(String(url)));
    if (unverified !== undefined)
      return tiktokErrorResponse(
        403,
        'url_ownership_unverified',
        'The domain or URL prefix of photo_images is not verified.',
      );
    const post = this.#newPost(token, 'photo', 'PULL_FROM_URL', info);
    post.urls.push(...images.map(String));
    return ok({ publish_id: post.publishId });
  }

  #chunk(req: RecordedRequest, uploadId: string): FakeResponse {
    const post = this.#uploads.get(uploadId);
    if (!post)
      return { status: 404, json: { error: { code: 'invalid_upload', message: 'upload not found' } } };
    const type = String(req.headers['content-type'] ?? '');
    if (!['video/mp4', 'video/quicktime', 'video/webm'].includes(type))
      return {
        status: 400,
        json: { error: { code: 'invalid_file_upload', message: `Content-Type ${type} is not supported` } },
      };
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
    const received = post.received.reduce((sum, b) => sum + b.length, 0);
    const index = post.chunks.length;
    const last = index === post.totalChunkCount! - 1;
    const expectedEnd = last ? post.videoSize! - 1 : received + post.chunkSize! - 1;
    if (
      !range ||
      Number(range[1]) !== received ||
      Number(range[2]) !== expectedEnd ||
      Number(range[3]) !== post.videoSize ||
      req.rawBody.length !== expectedEnd - received + 1
    ) {
      return {
        status: 416,
        json: { error: { code: 'invalid_range', message: 'Content-Range does not match the next chunk' } },
      };
    }
    post.chunks.push({ range: range[0].slice(6), bytes: req.rawBody.length, contentType: type });
    post.received.push(Buffer.from(req.rawBody));
    if (!last) return { status: 206 };
    post.status = 'PROCESSING_DOWNLOAD';
    this.#uploads.delete(uploadId);
    return { status: 201 };
  }

  async #status(req: RecordedRequest): Promise<FakeResponse> {
    const token = this.#auth(req, 'video.publish');
    if (!('openId' in token)) return token;
    const body = this.#json(req);
    if ('status' in body && typeof body.status === 'number') return body as FakeResponse;
    const post = this.posts.find((p) => p.publishId === (body as Record<string, unknown>).publish_id);
    if (!post || post.openId !== token.openId)
      return tiktokErrorResponse(400, 'invalid_publish_id', 'publish_id does not exist');
    if (post.status === 'PROCESSING_DOWNLOAD') {
      if (post.source === 'PULL_FROM_URL' && post.downloaded.length === 0) {
        for (const url of post.urls) {
          const fetched = await fetchMedia(url);
          const usable =
            fetched &&
            (post.kind === 'video'
              ? fetched.contentType.startsWith('video/')
              : photoRefs.has(fetched.contentType));
          if (!usable) {
            post.status = 'FAILED';
            post.failReason = post.kind === 'video' ? 'video_pull_failed' : 'photo_pull_failed';
            break;
          }
          post.downloaded.push({ url, bytes: fetched.bytes.length, contentType: fetched.contentType });
        }
      }
      if (post.status !== 'FAILED' && this.nextFailReason) {
        post.status = 'FAILED';
        post.failReason = this.nextFailReason;
        this.nextFailReason = undefined;
      }
      if (post.status !== 'FAILED') {
        if (post.pollsLeft > 0) post.pollsLeft--;
        else {
          post.status = 'PUBLISH_COMPLETE';
          if (post.postInfo.privacy_level !== 'SELF_ONLY')
            post.postId = String(7_300_000_000_000_000_000n + BigInt(this.posts.indexOf(post)));
        }
      }
    }
    const uploaded = post.received.reduce((sum, b) => sum + b.length, 0);
    const answer = ok({
      status: post.status,
      ...(post.failReason ? { fail_reason: post.failReason } : {}),
      ...(post.postId ? { publicaly_available_post_id: [post.postId] } : { publicaly_available_post_id: [] }),
      ...(post.source === 'FILE_UPLOAD'
        ? { uploaded_bytes: uploaded }
        : { downloaded_bytes: post.downloaded.reduce((s, d) => s + d.bytes, 0) }),
    });
    // TikTok writes the post id as a JSON number (19 digits, beyond a double's exact range).
    const text = JSON.stringify(answer.json).replace(
      /"publicaly_available_post_id":\["(\d+)"\]/,
      '"publicaly_available_post_id":[$1]',
    );
    return { text, headers: { 'content-type': 'application/json' } };
  }
}

export async function startFakeTikTok(options: FakeTikTokOptions = {}): Promise<FakeTikTok> {
  return new FakeTikTok(options).start();
}
