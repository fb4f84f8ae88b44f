import { randomBytes } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

export interface FakeLemmyUser {
  username: string;
  password: string;
  /** Two-factor login: the password alone answers `missing_totp_token`. */
  totp?: boolean;
}

export interface FakeLemmyCommunity {
  id?: number;
  name: string;
  title?: string;
  /** Another instance's community, known here (`name@host`). */
  host?: string;
  subscribers?: number;
  /** Only moderators may post (`only_mods_can_post_in_community`). */
  restricted?: boolean;
  /** The users subscribed to it (listed by `GET /api/v3/community/list?type_=Subscribed`). */
  subscribedBy?: string[];
}

export interface FakeLemmyPost {
  id: number;
  name: string;
  body: string | null;
  url: string | null;
  nsfw: boolean;
  communityId: number;
  creator: string;
  published: string;
  upvotes: number;
  comments: number;
  deleted?: boolean;
}

const error = (status: number, type: string): FakeResponse => ({ status, json: { error: type } });

/**
 * A Lemmy 0.19 instance as far as posting goes: `POST /api/v3/user/login` → `jwt`, the session as
 * `Authorization: Bearer` (or the `jwt` cookie, which pict-rs reads), `GET /api/v3/community?name=`,
 * `GET /api/v3/community/list` (`type_` All, Local or Subscribed; `page`, `limit` up to 50),
 * `POST /api/v3/post` checked like Lemmy (title 3–200 characters on one line, body ≤ 10,000, a valid
 * url), pict-rs uploads (`POST /pictrs/image`, `images[]`), comments, `GET /api/v3/post?id=` with
 * counts and `GET /api/v3/post/list`. Errors are `{ "error": "<type>" }` (401 for login and session
 * refusals, 404 for what is not found, 429 `rate_limit_error`, 400 otherwise, as
 * `{ "error": "unknown", "message" }` for a bad page or limit).
 */
export class FakeLemmy {
  readonly server = new FakeServer();
  readonly posts: FakeLemmyPost[] = [];
  readonly comments: { id: number; postId: number; content: string; creator: string }[] = [];
  readonly images = new Map<string, { bytes: Buffer; type: string }>();
  readonly #users: FakeLemmyUser[];
  readonly #communities: (FakeLemmyCommunity & { id: number })[];
  readonly #sessions = new Map<string, string>();
  #nextId = 100;

  constructor(options: { users: FakeLemmyUser[]; communities: FakeLemmyCommunity[] }) {
    this.#users = options.users;
    this.#communities = options.communities.map((c, i) => ({ ...c, id: c.id ?? i + 1 }));
    this.#routes();
  }

  get url(): string {
    return this.server.url;
  }

  get host(): string {
    return new URL(this.url).host;
  }

  credentials(username: string, password: string): Record<string, string> {
    return { instanceUrl: this.url, username, password };
  }

  calls(path: string, method?: string): RecordedRequest[] {
    return this.server.requests.filter((r) => r.path === path && (!method || r.method === method));
  }

  /** Every session token stops working (`not_logged_in`), as after a password change or expiry. */
  expireSessions(): void {
    this.#sessions.clear();
  }

  rateLimit(options: { times?: number; path?: RegExp } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      ...(options.path ? { path: options.path } : {}),
      ...error(429, 'rate_limit_error'),
    });
  }

  failWith(status: number, options: { times?: number; path?: RegExp } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      ...(options.path ? { path: options.path } : {}),
      status,
      headers: { 'content-type': 'text/html' },
      text: `<html><body>${status} Bad Gateway</body></html>`,
    });
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  #routes(): void {
    const s = this.server;
    s.route('POST', /^\/api\/v3\/user\/login$/, (req) => this.#login(req));
    s.route('GET', /^\/api\/v3\/community$/, (req) => this.#community(req));
    s.route('GET', /^\/api\/v3\/community\/list$/, (req) => this.#listCommunities(req));
    s.route('POST', /^\/api\/v3\/post$/, (req) => this.#authed(req, (user) => this.#createPost(req, user)));
    s.route('GET', /^\/api\/v3\/post$/, (req) => this.#getPost(req));
    s.route('GET', /^\/api\/v3\/post\/list$/, (req) => this.#listPosts(req));
    s.route('POST', /^\/api\/v3\/comment$/, (req) => this.#authed(req, (user) => this.#comment(req, user)));
    s.route('POST', /^\/pictrs\/image$/, (req) => this.#authed(req, () => this.#upload(req)));
    s.route('GET', /^\/pictrs\/image\/([^/]+)$/, (_req, m) => {
      const image = this.images.get(m[1]!);
      return image
        ? { bytes: new Uint8Array(image.bytes), headers: { 'content-type': image.type } }
        : { status: 404, text: 'not found' };
    });
    s.route('GET', /.*/, () => error(404, 'not_found'));
    s.route('POST', /.*/, () => error(404, 'not_found'));
  }

  #login(req: RecordedRequest): FakeResponse {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const user = this.#users.find(
      (u) => u.username === body.username_or_email && u.password === body.password,
    );
    if (!user) return error(401, 'incorrect_login');
    if (user.totp && !body.totp_2fa_token) return error(401, 'missing_totp_token');
    const jwt = `eyJ.${randomBytes(12).toString('hex')}`;
    this.#sessions.set(jwt, user.username);
    return { json: { jwt, registration_created: false, verify_email_sent: false } };
  }

  #authed(req: RecordedRequest, handler: (user: string) => FakeResponse | Promise<FakeResponse>) {
    const { user } = this.#session(req);
    if (!user) return error(401, 'not_logged_in');
    return handler(user);
  }

  #session(req: RecordedRequest): { jwt?: string; user?: string } {
    const header = String(req.headers.authorization ?? '');
    const cookie = /(?:^|;\s*)jwt=([^;]+)/.exec(String(req.headers.cookie ?? ''))?.[1];
    const jwt = header.startsWith('Bearer ') ? header.slice(7) : cookie;
    const user = jwt ? this.#sessions.get(jwt) : undefined;
    return { ...(jwt ? { jwt } : {}), ...(user ? { user } : {}) };
  }

  /**
   * As Lemmy 0.19: a token it does not know is refused (401), no token lists as a guest (who
   * follows nothing); pages start at 1, `limit` is 1 to 50 (else `unknown`, 400).
   */
  #listCommunities(req: RecordedRequest): FakeResponse {
    const { jwt, user } = this.#session(req);
    if (jwt && !user) return error(401, 'not_logged_in');
    const page = Number(req.query.get('page') ?? 1);
    const limit = Number(req.query.get('limit') ?? 10);
    if (!Number.isInteger(page) || page < 1)
      return { status: 400, json: { error: 'unknown', message: 'Page is < 1' } };
    if (!Number.isInteger(limit) || limit < 1 || limit > 50)
      return { status: 400, json: { error: 'unknown', message: 'Fetch limit is > 50' } };
    const type = req.query.get('type_') ?? 'All';
    const follows = (c: FakeLemmyCommunity) => !!user && !!c.subscribedBy?.includes(user);
    const listed = this.#communities.filter((c) =>
      type === 'Subscribed' ? follows(c) : type === 'Local' ? !c.host : true,
    );
    const communities = listed.slice((page - 1) * limit, page * limit).map((c) => ({
      ...this.#communityView(c),
      subscribed: follows(c) ? 'Subscribed' : 'NotSubscribed',
      blocked: false,
      banned_from_community: false,
    }));
    return { json: { communities } };
  }

  #community(req: RecordedRequest): FakeResponse {
    const name = req.query.get('name');
    const id = req.query.get('id');
    const community = this.#communities.find((c) =>
      id
        ? String(c.id) === id
        : name === (c.host ? `${c.name}@${c.host}` : c.name) ||
          (!c.host && name === `${c.name}@${this.host}`),
    );
    if (!community) return error(404, 'couldnt_find_community');
    return {
      json: { community_view: this.#communityView(community), moderators: [], discussion_languages: [] },
    };
  }

  #communityView(c: FakeLemmyCommunity & { id: number }): Record<string, unknown> {
    const host = c.host ?? this.host;
    return {
      community: {
        id: c.id,
        name: c.name,
        title: c.title ?? c.name,
        actor_id: `http://${host}/c/${c.name}`,
        local: !c.host,
        posting_restricted_to_mods: !!c.restricted,
      },
      subscribed: 'NotSubscribed',
      counts: {
        community_id: c.id,
        subscribers: c.subscribers ?? 0,
        posts: this.posts.filter((p) => p.communityId === c.id).length,
      },
    };
  }

  #createPost(req: RecordedRequest, user: string): FakeResponse {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const name = typeof body.name === 'string' ? body.name : '';
    const community = this.#communities.find((c) => c.id === body.community_id);
    if (!community) return error(404, 'couldnt_find_community');
    if (community.restricted) return error(400, 'only_mods_can_post_in_community');
    const length = [...name.trim()].length;
    if (length < 3 || length > 200 || /[\r\n]/.test(name)) return error(400, 'invalid_post_title');
    if (typeof body.body === 'string' && [...body.body].length > 10_000)
      return error(400, 'invalid_body_field');
    if (body.url !== undefined) {
      try {
        const url = new URL(String(body.url));
        if (url.protocol !== 'http:' && url.protocol !== 'https:') return error(400, 'invalid_url');
      } catch {
        return error(400, 'invalid_url');
      }
    }
    const post: FakeLemmyPost = {
      id: this.#nextId++,
      name,
      body: typeof body.body === 'string' ? body.body : null,
      url: typeof body.url === 'string' ? body.url : null,
      nsfw: body.nsfw === true,
      communityId: community.id,
      creator: user,
      // Lemmy 0.19 writes timestamps with a Z; older versions without.
      published: new Date().toISOString(),
      upvotes: 1,
      comments: 0,
    };
    this.posts.push(post);
    return { json: { post_view: this.#postView(post) } };
  }

  #postView(post: FakeLemmyPost): Record<string, unknown> {
    const community = this.#communities.find((c) => c.id === post.communityId)!;
    return {
      post: {
        id: post.id,
        name: post.name,
        body: post.body,
        url: post.url,
        nsfw: post.nsfw,
        community_id: post.communityId,
        published: post.published,
        deleted: !!post.deleted,
        removed: false,
        ap_id: `${this.url}/post/${post.id}`,
      },
      creator: { name: post.creator },
      community: { id: community.id, name: community.name },
      counts: {
        post_id: post.id,
        comments: post.comments,
        score: post.upvotes,
        upvotes: post.upvotes,
        downvotes: 0,
      },
    };
  }

  #getPost(req: RecordedRequest): FakeResponse {
    const post = this.posts.find((p) => String(p.id) === req.query.get('id'));
    if (!post) return error(404, 'couldnt_find_post');
    return { json: { post_view: this.#postView(post), community_view: {}, moderators: [], cross_posts: [] } };
  }

  #listPosts(req: RecordedRequest): FakeResponse {
    const communityId = Number(req.query.get('community_id'));
    const limit = Number(req.query.get('limit') ?? 10);
    const posts = this.posts
      .filter((p) => p.communityId === communityId && !p.deleted)
      .reverse()
      .slice(0, limit);
    return { json: { posts: posts.map((p) => this.#postView(p)) } };
  }

  #comment(req: RecordedRequest, user: string): FakeResponse {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const post = this.posts.find((p) => p.id === body.post_id);
    if (!post) return error(404, 'couldnt_find_post');
    if (typeof body.content !== 'string' || !body.content.trim()) return error(400, 'invalid_body_field');
    const comment = { id: this.#nextId++, postId: post.id, content: body.content, creator: user };
    this.comments.push(comment);
    post.comments++;
    return {
      json: {
        comment_view: {
          comment: {
            id: comment.id,
            content: comment.content,
            post_id: post.id,
            ap_id: `${this.url}/comment/${comment.id}`,
          },
        },
      },
    };
  }

  async #upload(req: RecordedRequest): Promise<FakeResponse> {
    const file = req.files['images[]'];
    if (!file) return { status: 400, json: { msg: 'No images' } };
    if (!file.type.startsWith('image/')) return { status: 400, json: { msg: 'Unsupported media type' } };
    const name = `${randomBytes(8).toString('hex')}.${file.type.split('/')[1]}`;
    this.images.set(name, { bytes: Buffer.from(await file.arrayBuffer()), type: file.type });
    return {
      status: 201,
      json: { msg: 'ok', files: [{ file: name, delete_token: randomBytes(6).toString('hex') }] },
    };
  }
}

export function startFakeLemmy(options: {
  users: FakeLemmyUser[];
  communities: FakeLemmyCommunity[];
}): Promise<FakeLemmy> {
  return new FakeLemmy(options).start();
}
