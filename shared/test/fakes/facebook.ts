import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';
import { FakeFigures } from './figures.ts';
import {
  AuthorizationCodes,
  type FetchedMedia,
  fetchMedia,
  graphErrorResponse,
  graphTokenProblem,
  graphUnknownObject,
  sniff,
  usageHeaders,
} from './meta-graph.ts';

/**
 * A fake of the Facebook Graph API for Pages: the Login dialog redirect, `oauth/access_token`
 * (code exchange and `fb_exchange_token`), `/me/accounts` with Page tokens, `/{page}`,
 * `/{page}/feed` (with `attached_media`), `/{page}/photos` (published or not, fetched from `url`),
 * `/{page}/videos` (`file_url`, or the chunked upload: start / transfer / finish), photo
 * `alt_text_custom`, comments (`POST /{object-id}/comments`), Graph's error body and the `X-App-Usage` / `X-Business-Use-Case-Usage` headers.
 */
export interface FakeFacebookPage {
  id: string;
  name: string;
  username?: string;
  /** Instagram professional account linked to the page. */
  instagram?: { id: string; username: string; name?: string; profile_picture_url?: string };
  tasks?: string[];
}

export interface FakeFacebookOptions {
  appId?: string;
  appSecret?: string;
  pages?: FakeFacebookPage[];
  /** Fetch media from `url` / `file_url` as Facebook does (default); false records the URL only. */
  fetchMedia?: boolean;
  /** Chunk size the upload session asks for. */
  videoChunkBytes?: number;
}

export interface FakeFacebookPost {
  id: string;
  pageId: string;
  message?: string;
  link?: string;
  photoIds: string[];
  /** Deleted by the page (`deletePost`): comments on it are refused. */
  deleted?: boolean;
}
export interface FakeFacebookComment {
  id: string;
  objectId: string;
  pageId: string;
  message: string;
}
export interface FakeFacebookPhoto {
  id: string;
  pageId: string;
  url: string;
  published: boolean;
  caption?: string;
  /** `alt_text_custom`: the photo's alt text instead of Facebook's automatic one. */
  altTextCustom?: string;
  media?: FetchedMedia;
  attachedTo?: string;
}
export interface FakeFacebookVideo {
  id: string;
  pageId: string;
  description?: string;
  fileUrl?: string;
  bytes?: Buffer;
  size?: number;
  session?: string;
  status: 'uploading' | 'processing' | 'ready' | 'error';
  /** False: uploaded but shown nowhere until an update of the Video node publishes it. */
  published: boolean;
  /** When an update published it (ms), if it was uploaded unpublished. */
  publishedLater?: number;
}

interface Token {
  kind: 'user' | 'page';
  pageId?: string;
  longLived: boolean;
  expiresAt: number;
  valid: boolean;
}

export class FakeFacebook {
  readonly server = new FakeServer();
  readonly appId: string;
  readonly appSecret: string;
  readonly pages: FakeFacebookPage[];
  readonly posts: FakeFacebookPost[] = [];
  /** What a post's `shares`, `reactions` and `comments` summaries report; `followers` is each page's. */
  readonly figures = new FakeFigures<'shares' | 'reactions' | 'comments'>();
  readonly photos = new Map<string, FakeFacebookPhoto>();
  readonly videos = new Map<string, FakeFacebookVideo>();
  /** Ids of videos removed by `DELETE /{video-id}`, in order. */
  readonly deletedVideos: string[] = [];
  readonly comments: FakeFacebookComment[] = [];
  consent: 'approve' | 'deny' = 'approve';
  fetchMedia: boolean;
  videoChunkBytes: number;
  /** The next feed post is created but its answer never arrives (the connection drops). */
  loseNextPostAnswer = false;
  /** Usage percent reported in the usage headers. */
  usagePercent = 5;
  readonly #tokens = new Map<string, Token>();
  readonly #codes = new AuthorizationCodes<{ redirectUri: string }>();
  readonly #blocked = new Set<string>();
  #ids = 100_000;

  constructor(options: FakeFacebookOptions = {}) {
    this.appId = options.appId ?? '1234567890123456';
    this.appSecret = options.appSecret ?? 'fake-facebook-app-secret';
    this.pages = options.pages ?? [
      { id: '101010101010101', name: 'Postwave Bakery', username: 'postwavebakery' },
      { id: '202020202020202', name: 'Postwave Garage' },
    ];
    this.fetchMedia = options.fetchMedia ?? true;
    this.videoChunkBytes = options.videoChunkBytes ?? 1024 * 1024;

    const v = String.raw`^\/v\d+\.\d+`;
    this.server
      .route('GET', new RegExp(`${v}/dialog/oauth$`), (r) => this.#dialog(r))
      .route('GET', new RegExp(`${v}/oauth/access_token$`), (r) => this.#accessToken(r))
      .route('GET', new RegExp(`${v}/me/accounts$`), (r) => this.#accounts(r))
      .route('GET', new RegExp(`${v}/me$`), (r) => this.#me(r))
      .route('POST', new RegExp(`${v}/(\\d+)/feed$`), (r, m) => this.#feed(r, m[1]!))
      .route('GET', new RegExp(`${v}/(\\d+)/(?:posts|feed)$`), (r, m) => this.#listPosts(r, m[1]!))
      .route('POST', new RegExp(`${v}/(\\d+)/photos$`), (r, m) => this.#photos(r, m[1]!))
      .route('POST', new RegExp(`${v}/(\\d+)/videos$`), (r, m) => this.#videos(r, m[1]!))
      .route('POST', new RegExp(`${v}/([\\d_]+)/comments$`), (r, m) => this.#comment(r, m[1]!))
      .route('GET', new RegExp(`${v}/(\\d+_\\d+)$`), (r, m) => this.#post(r, m[1]!))
      .route('GET', new RegExp(`${v}/(\\d+)$`), (r, m) => this.#object(r, m[1]!))
      .route('POST', new RegExp(`${v}/(\\d+)$`), (r, m) => this.#updateVideo(r, m[1]!))
      .route('DELETE', new RegExp(`${v}/(\\d+)$`), (r, m) => this.#deleteVideo(r, m[1]!));
  }

  get url(): string {
    return this.server.url;
  }
  get dialogUrl(): string {
    return `${this.url}/v23.0/dialog/oauth`;
  }

  env(): Record<string, string> {
    return {
      FACEBOOK_GRAPH_URL: this.url,
      FACEBOOK_OAUTH_AUTHORIZE_URL: this.dialogUrl,
      FACEBOOK_APP_ID: this.appId,
      FACEBOOK_APP_SECRET: this.appSecret,
    };
  }

  /** A Page access token (from a long-lived user token: it does not expire). */
  pageToken(pageId = this.pages[0]!.id): string {
    const token = `EAAG${randomBytes(32).toString('base64url')}`;
    this.#tokens.set(token, {
      kind: 'page',
      pageId,
      longLived: true,
      expiresAt: Number.POSITIVE_INFINITY,
      valid: true,
    });
    return token;
  }

  /** Every token stops working (the user removed the app or changed the password): code 190. */
  invalidateTokens(): void {
    for (const token of this.#tokens.values()) token.valid = false;
  }

  /** The page is blocked from posting (code 368) until unblocked. */
  blockPage(pageId: string, blocked = true): void {
    if (blocked) this.#blocked.add(pageId);
    else this.#blocked.delete(pageId);
  }

  /** The next matching request(s) answer Graph's error body (with usage headers when rate limited). */
  failNext(options: {
    path?: RegExp;
    status?: number;
    code: number;
    subcode?: number;
    message: string;
    times?: number;
    regainMinutes?: number;
  }): void {
    const limited = [4, 17, 32, 613].includes(options.code);
    this.server.inject({
      ...(options.path ? { path: options.path } : {}),
      times: options.times ?? 1,
      ...graphErrorResponse(
        options.status ?? (limited ? 403 : 400),
        { message: options.message, code: options.code, error_subcode: options.subcode },
        limited ? usageHeaders(this.pages[0]!.id, 'pages', 100, options.regainMinutes ?? 0) : {},
      ),
    });
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

  #id(): string {
    return String(this.#ids++);
  }

  #params(request: RecordedRequest): Record<string, string> {
    return { ...Object.fromEntries(request.query), ...((request.body ?? {}) as Record<string, string>) };
  }

  #ok(json: unknown, pageId?: string): FakeResponse {
    return { json, headers: usageHeaders(pageId ?? this.appId, 'pages', this.usagePercent) };
  }

  /** The token in `access_token` (or a Bearer / OAuth header), as Graph checks it. */
  #token(request: RecordedRequest): Token | FakeResponse {
    const params = this.#params(request);
    const header = String(request.headers.authorization ?? '');
    const raw = params.access_token ?? header.replace(/^(Bearer|OAuth) /, '');
    if (!raw) {
      return graphErrorResponse(400, {
        message: 'An active access token must be used to query information about the current user.',
        code: 2500,
      });
    }
    const token = this.#tokens.get(raw);
    const problem = graphTokenProblem(token, {
      message:
        'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
      subcode: 460,
    });
    return problem ?? token!;
  }

  #pageToken(request: RecordedRequest, pageId: string): Token | FakeResponse {
    const token = this.#token(request);
    if (!isToken(token)) return token;
    if (!this.pages.some((p) => p.id === pageId)) {
      return graphUnknownObject(pageId, 'post');
    }
    if (token.kind !== 'page' || token.pageId !== pageId) {
      return graphErrorResponse(403, {
        message:
          '(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission',
        code: 200,
      });
    }
    if (this.#blocked.has(pageId)) {
      return graphErrorResponse(400, {
        message: 'The action attempted has been deemed abusive or is otherwise disallowed',
        code: 368,
        error_subcode: 1390008,
      });
    }
    return token;
  }

  // --- Login -----------------------------------------------------------------------------------

  #dialog(request: RecordedRequest): FakeResponse {
    const q = request.query;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_id') !== this.appId || !redirectUri)
      return { status: 400, text: 'Invalid App ID or redirect_uri' };
    const back = new URL(redirectUri);
    if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
    if (this.consent === 'deny') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_reason', 'user_denied');
      back.searchParams.set('error_description', 'Permissions error');
    } else {
      const code = `AQ${randomBytes(32).toString('base64url')}`;
      this.#codes.issue(code, { redirectUri });
      back.searchParams.set('code', code);
    }
    back.hash = '_=_';
    return { status: 302, headers: { location: back.toString() } };
  }

  #accessToken(request: RecordedRequest): FakeResponse {
    const q = request.query;
    if (q.get('client_id') !== this.appId || q.get('client_secret') !== this.appSecret) {
      return graphErrorResponse(400, { message: 'Error validating client secret.', code: 1 });
    }
    if (q.get('grant_type') === 'fb_exchange_token') {
      const short = this.#tokens.get(q.get('fb_exchange_token') ?? '');
      if (!short?.valid)
        return graphErrorResponse(400, { message: 'Invalid OAuth access token.', code: 190 });
      const token = `EAAL${randomBytes(32).toString('base64url')}`;
      this.#tokens.set(token, {
        kind: 'user',
        longLived: true,
        expiresAt: Date.now() + 5_184_000_000,
        valid: true,
      });
      return this.#ok({ access_token: token, token_type: 'bearer', expires_in: 5_183_999 });
    }
    const redeemed = this.#codes.redeem(q.get('code'), q.get('redirect_uri'));
    if ('problem' in redeemed && redeemed.problem !== 'redirect_mismatch') {
      return graphErrorResponse(400, {
        message: 'This authorization code has been used.',
        code: 100,
        error_subcode: 36009,
      });
    }
    if ('problem' in redeemed) {
      return graphErrorResponse(400, {
        message:
          'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        code: 100,
        error_subcode: 36008,
      });
    }
    const token = `EAAS${randomBytes(32).toString('base64url')}`;
    this.#tokens.set(token, {
      kind: 'user',
      longLived: false,
      expiresAt: Date.now() + 3_600_000,
      valid: true,
    });
    return this.#ok({ access_token: token, token_type: 'bearer', expires_in: 5_183_944 });
  }

  #accounts(request: RecordedRequest): FakeResponse {
    const token = this.#token(request);
    if (!isToken(token)) return token;
    if (token.kind !== 'user')
      return graphErrorResponse(400, {
        message: '(#100) Tried accessing nonexisting field (accounts) on node type (Page)',
        code: 100,
      });
    const fields = request.query.get('fields') ?? 'id,name,access_token';
    const data = this.pages.map((page) => {
      const out: Record<string, unknown> = { id: page.id, name: page.name };
      if (fields.includes('access_token')) out.access_token = this.pageToken(page.id);
      if (fields.includes('tasks'))
        out.tasks = page.tasks ?? ['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'];
      if (fields.includes('picture'))
        out.picture = { data: { url: `https://scontent.example/${page.id}.jpg` } };
      if (fields.includes('instagram_business_account') && page.instagram)
        out.instagram_business_account = page.instagram;
      return out;
    });
    return this.#ok({ data, paging: { cursors: { before: 'QVFIUb', after: 'QVFIUa' } } });
  }

  #me(request: RecordedRequest): FakeResponse {
    const token = this.#token(request);
    if (!isToken(token)) return token;
    if (token.kind === 'page') return this.#object(request, token.pageId!);
    return this.#ok({ id: '5550001', name: 'Page Admin' });
  }

  #object(request: RecordedRequest, id: string): FakeResponse {
    const token = this.#token(request);
    if (!isToken(token)) return token;
    const page = this.pages.find((p) => p.id === id);
    if (page) {
      return this.#ok(
        {
          id: page.id,
          name: page.name,
          ...(page.username ? { username: page.username } : {}),
          picture: { data: { url: `https://scontent.example/${page.id}.jpg` } },
          ...(fieldsOf(request).includes('followers_count')
            ? { followers_count: this.figures.followers }
            : {}),
        },
        page.id,
      );
    }
    const video = this.videos.get(id);
    if (video) {
      if (video.status === 'processing') video.status = 'ready';
      return this.#ok({
        id,
        status: { video_status: video.status, processing_progress: video.status === 'ready' ? 100 : 50 },
      });
    }
    return graphUnknownObject(id, 'get');
  }

  /**
   * `GET /{page-post-id}?fields=shares,reactions.summary(total_count).limit(0),comments.summary(…)`:
   * `shares` only once someone shared, as Graph answers; a deleted post is an unknown object.
   */
  #post(request: RecordedRequest, id: string): FakeResponse {
    const token = this.#token(request);
    if (!isToken(token)) return token;
    const post = this.posts.find((p) => p.id === id && !p.deleted);
    if (!post) return graphUnknownObject(id, 'get');
    const fields = fieldsOf(request);
    const summary = (name: 'reactions' | 'comments') => ({
      data: [],
      summary: {
        total_count: this.figures.of(id, name),
        ...(name === 'comments' ? { order: 'ranked' } : {}),
      },
    });
    const shares = this.figures.of(id, 'shares');
    return this.#ok(
      {
        id,
        ...(fields.includes('message') && post.message ? { message: post.message } : {}),
        ...(fields.includes('shares') && shares > 0 ? { shares: { count: shares } } : {}),
        ...(fields.some((f) => f.startsWith('reactions')) ? { reactions: summary('reactions') } : {}),
        ...(fields.some((f) => f.startsWith('comments')) ? { comments: summary('comments') } : {}),
      },
      post.pageId,
    );
  }

  // --- Publishing ------------------------------------------------------------------------------

  #feed(request: RecordedRequest, pageId: string): FakeResponse {
    const token = this.#pageToken(request, pageId);
    if (!isToken(token)) return token;
    const params = this.#params(request);
    const message = params.message;
    if (message !== undefined && [...message].length > 63206) {
      return graphErrorResponse(400, { message: '(#100) The message is too long', code: 100 });
    }
    const photoIds: string[] = [];
    for (let i = 0; params[`attached_media[${i}]`] !== undefined; i++) {
      let fbid: string | undefined;
      try {
        fbid = (JSON.parse(params[`attached_media[${i}]`]!) as { media_fbid?: string }).media_fbid;
      } catch {
        fbid = undefined;
      }
      const photo = fbid ? this.photos.get(fbid) : undefined;
      if (!photo || photo.pageId !== pageId || photo.published || photo.attachedTo) {
        return graphErrorResponse(400, {
          message: `(#100) param attached_media[${i}] must be an unpublished photo of this page`,
          code: 100,
        });
      }
      photoIds.push(photo.id);
    }
    if (!message && !params.link && photoIds.length === 0) {
      return graphErrorResponse(400, { message: '(#100) Missing message or attachment', code: 100 });
    }
    const last = this.posts.findLast((p) => p.pageId === pageId);
    if (message && last && last.message === message && photoIds.length === 0) {
      return graphErrorResponse(400, {
        message: '(#506) Duplicate status message',
        code: 506,
        error_subcode: 1455006,
      });
    }
    const id = `${pageId}_${this.#id()}`;
    for (const photoId of photoIds) this.photos.get(photoId)!.attachedTo = id;
    this.posts.push({
      id,
      pageId,
      ...(message ? { message } : {}),
      ...(params.link ? { link: params.link } : {}),
      photoIds,
    });
    if (this.loseNextPostAnswer) {
      this.loseNextPostAnswer = false;
      return { drop: true };
    }
    return this.#ok({ id }, pageId);
  }

  /** Deletes a post, as the page would. */
  deletePost(id: string): void {
    const post = this.posts.find((p) => p.id === id);
    if (post) post.deleted = true;
  }

  /** `POST /{object-id}/comments` `message`: the page comments on its post or video. */
  #comment(request: RecordedRequest, objectId: string): FakeResponse {
    const post = this.posts.find((p) => p.id === objectId && !p.deleted);
    const pageId = post?.pageId ?? this.videos.get(objectId)?.pageId;
    if (!pageId) {
      const token = this.#token(request);
      if (!isToken(token)) return token;
      return graphUnknownObject(objectId, 'post');
    }
    const token = this.#pageToken(request, pageId);
    if (!isToken(token)) return token;
    const message = this.#params(request).message;
    if (!message)
      return graphErrorResponse(400, { message: '(#100) Missing message or attachment', code: 100 });
    if ([...message].length > 8000)
      return graphErrorResponse(400, { message: '(#100) The comment is too long', code: 100 });
    const id = `${objectId.split('_').at(-1)}_${this.#id()}`;
    this.comments.push({ id, objectId, pageId, message });
    return this.#ok({ id }, pageId);
  }

  #listPosts(request: RecordedRequest, pageId: string): FakeResponse {
    const token = this.#token(request);
    if (!isToken(token)) return token;
    const limit = Number(request.query.get('limit') ?? 25);
    const data = this.posts
      .filter((p) => p.pageId === pageId)
      .reverse()
      .slice(0, limit)
      .map((p) => ({
        id: p.id,
        ...(p.message ? { message: p.message } : {}),
        created_time: new Date().toISOString(),
      }));
    return this.#ok({ data, paging: { cursors: { before: 'b', after: 'a' } } }, pageId);
  }

  async #photos(request: RecordedRequest, pageId: string): Promise<FakeResponse> {
    const token = this.#pageToken(request, pageId);
    if (!isToken(token)) return token;
    const params = this.#params(request);
    if (!params.url) return graphErrorResponse(400, { message: '(#324) Requires upload file', code: 324 });
    let media: FetchedMedia | undefined;
    if (this.fetchMedia) {
      media = await fetchMedia(params.url);
      if (!media?.contentType.startsWith('image/')) {
        return graphErrorResponse(400, { message: '(#324) Missing or invalid image file', code: 324 });
      }
      if (media.bytes.length > 4 * 1024 * 1024) {
        return graphErrorResponse(400, {
          message: '(#100) Photo file size exceeds 4MB limit',
          code: 100,
          error_subcode: 1366046,
        });
      }
    }
    const published = params.published !== 'false';
    const id = this.#id();
    this.photos.set(id, {
      id,
      pageId,
      url: params.url,
      published,
      ...(params.caption ? { caption: params.caption } : {}),
      ...(params.alt_text_custom !== undefined ? { altTextCustom: params.alt_text_custom } : {}),
      ...(media ? { media } : {}),
    });
    if (!published) return this.#ok({ id }, pageId);
    const postId = `${pageId}_${this.#id()}`;
    this.posts.push({
      id: postId,
      pageId,
      ...(params.caption ? { message: params.caption } : {}),
      photoIds: [id],
    });
    return this.#ok({ id, post_id: postId }, pageId);
  }

  /** An update of a Video node: `published=true` publishes an unpublished video of the page. */
  #updateVideo(request: RecordedRequest, id: string): FakeResponse {
    const video = this.videos.get(id);
    if (!video) {
      return graphErrorResponse(400, {
        message: `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        type: 'GraphMethodException',
        code: 100,
        error_subcode: 33,
      });
    }
    const token = this.#pageToken(request, video.pageId);
    if (!isToken(token)) return token;
    const params = this.#params(request);
    if (params.published === 'true' && !video.published) {
      if (video.status === 'error' || video.status === 'uploading')
        return graphErrorResponse(400, { message: '(#100) The video cannot be published', code: 100 });
      video.published = true;
      video.publishedLater = Date.now();
    }
    return this.#ok({ success: true }, video.pageId);
  }

  /**
   * `DELETE /{video-id}` with the Page's token, as the Video reference documents: `{ success: true }`;
   * an unknown id answers Graph's "does not exist" error (code 100, subcode 33).
   */
  #deleteVideo(request: RecordedRequest, id: string): FakeResponse {
    const video = this.videos.get(id);
    if (!video) {
      return graphErrorResponse(400, {
        message: `Unsupported delete request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        type: 'GraphMethodException',
        code: 100,
        error_subcode: 33,
      });
    }
    const token = this.#pageToken(request, video.pageId);
    if (!isToken(token)) return token;
    this.videos.delete(id);
    this.deletedVideos.push(id);
    return this.#ok({ success: true }, video.pageId);
  }

  async #videos(request: RecordedRequest, pageId: string): Promise<FakeResponse> {
    const token = this.#pageToken(request, pageId);
    if (!isToken(token)) return token;
    const params = this.#params(request);
    const phase = params.upload_phase;
    if (phase === 'start') {
      const size = Number(params.file_size);
      if (!Number.isSafeInteger(size) || size <= 0)
        return graphErrorResponse(400, { message: '(#100) file_size is required', code: 100 });
      const id = this.#id();
      const session = this.#id();
      this.videos.set(id, {
        id,
        pageId,
        size,
        session,
        status: 'uploading',
        bytes: Buffer.alloc(0),
        published: true,
      });
      return this.#ok(
        {
          video_id: id,
          upload_session_id: session,
          start_offset: '0',
          end_offset: String(Math.min(this.videoChunkBytes, size)),
        },
        pageId,
      );
    }
    const video = [...this.videos.values()].find(
      (v) => v.session === params.upload_session_id && v.pageId === pageId,
    );
    if (phase === 'transfer' || phase === 'finish') {
      if (!video)
        return graphErrorResponse(400, {
          message: '(#6000) There was a problem uploading your video file',
          code: 6000,
          error_subcode: 1363019,
        });
    }
    if (phase === 'transfer') {
      const chunk = request.files.video_file_chunk;
      const start = Number(params.start_offset);
      if (!chunk || start !== video!.bytes!.length) {
        return graphErrorResponse(400, {
          message: '(#6001) Start offset mismatch',
          code: 6001,
          error_subcode: 1363037,
        });
      }
      video!.bytes = Buffer.concat([video!.bytes!, Buffer.from(await chunk.arrayBuffer())]);
      const next = video!.bytes.length;
      return this.#ok(
        {
          start_offset: String(next),
          end_offset: String(Math.min(next + this.videoChunkBytes, video!.size!)),
        },
        pageId,
      );
    }
    if (phase === 'finish') {
      if (video!.bytes!.length !== video!.size) {
        return graphErrorResponse(400, {
          message: '(#6001) The video file is incomplete',
          code: 6001,
          error_subcode: 1363020,
        });
      }
      video!.status = 'processing';
      video!.published = params.published !== 'false';
      if (params.description) video!.description = params.description;
      return this.#ok({ success: true }, pageId);
    }
    if (!params.file_url)
      return graphErrorResponse(400, {
        message: '(#100) Requires a file_url or an upload session',
        code: 100,
      });
    let bytes: Buffer | undefined;
    if (this.fetchMedia) {
      const media = await fetchMedia(params.file_url);
      if (!media || sniff(media.bytes) !== 'video/mp4') {
        return graphErrorResponse(400, {
          message: "(#352) The video file you selected is in a format that we don't support.",
          code: 352,
        });
      }
      bytes = media.bytes;
    }
    const id = this.#id();
    this.videos.set(id, {
      id,
      pageId,
      fileUrl: params.file_url,
      ...(bytes ? { bytes, size: bytes.length } : {}),
      ...(params.description ? { description: params.description } : {}),
      status: 'processing',
      published: params.published !== 'false',
    });
    return this.#ok({ id }, pageId);
  }
}

/** The top-level names of a Graph `fields` list (`reactions.summary(total_count).limit(0)` → `reactions…`). */
function fieldsOf(request: RecordedRequest): string[] {
  return (request.query.get('fields') ?? '').split(/,(?![^(]*\))/).filter(Boolean);
}

function isToken(value: Token | FakeResponse): value is Token {
  return 'kind' in value;
}

export async function startFakeFacebook(options: FakeFacebookOptions = {}): Promise<FakeFacebook> {
  const fake = new FakeFacebook(options);
  await fake.start();
  return fake;
}
