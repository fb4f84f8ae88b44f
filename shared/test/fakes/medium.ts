import { createHash } from 'node:crypto';
import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

export interface FakeMediumUser {
  id?: string;
  username: string;
  name?: string;
  /** Without `uploadImage` (an extended scope Medium grants on request) `POST /v1/images` answers 403. */
  canUploadImages?: boolean;
}

export interface FakeMediumPost {
  id: string;
  authorId: string;
  title: string;
  contentFormat: 'html' | 'markdown';
  content: string;
  tags: string[];
  canonicalUrl: string | null;
  publishStatus: 'public' | 'draft' | 'unlisted';
  url: string;
}

export interface FakeMediumImage {
  url: string;
  md5: string;
  contentType: string;
  size: number;
}

const error = (status: number, message: string, code: number): FakeResponse => ({
  status,
  json: { errors: [{ message, code }] },
});
const imageTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/tiff']);

/**
 * Medium's API (github.com/Medium/medium-api-docs) as far as publishing goes: bearer integration
 * tokens, answers wrapped in `{ data }`, errors as `{ errors: [{ message, code }] }` (401 for a bad
 * token, 403 for another author or a missing scope, 400 for invalid fields), `GET /v1/me`,
 * `POST /v1/images` (multipart `image`: JPEG, PNG, GIF, TIFF) and
 * `POST /v1/users/{authorId}/posts` (only the first three tags used, longer than 25 ignored).
 */
export class FakeMedium {
  readonly server = new FakeServer();
  readonly posts: FakeMediumPost[] = [];
  readonly images: FakeMediumImage[] = [];
  readonly #users = new Map<string, FakeMediumUser & { id: string }>();
  #nextId = 1;

  constructor(tokens: Record<string, FakeMediumUser>) {
    let n = 1;
    for (const [token, user] of Object.entries(tokens))
      this.#users.set(token, { ...user, id: user.id ?? `5303d74c64f66366f00cb9b2a94f3251bf5${n++}` });
    const s = this.server;
    s.route('GET', /^\/v1\/me$/, (req) =>
      this.#authed(req, (user) => ({ json: { data: this.#userJson(user) } })),
    );
    s.route('POST', /^\/v1\/images$/, (req) => this.#authed(req, (user) => this.#upload(req, user)));
    s.route('POST', /^\/v1\/users\/([^/]+)\/posts$/, (req, m) =>
      this.#authed(req, (user) => this.#create(req, user, decodeURIComponent(m[1]!))),
    );
    s.route('GET', /^\/images\//, () => ({ status: 200, bytes: new Uint8Array([0]) }));
  }

  get url(): string {
    return this.server.url;
  }

  /** The variables that point the Medium publisher at this fake. */
  env(): Record<string, string> {
    return { MEDIUM_API_URL: this.url };
  }

  userId(token: string): string {
    return this.#users.get(token)!.id;
  }

  revoke(token: string): void {
    this.#users.delete(token);
  }

  calls(path: string | RegExp, method?: string): RecordedRequest[] {
    return this.server.requests.filter(
      (r) =>
        (typeof path === 'string' ? r.path === path : path.test(r.path)) && (!method || r.method === method),
    );
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  #authed(
    req: RecordedRequest,
    handler: (user: FakeMediumUser & { id: string }) => FakeResponse,
  ): FakeResponse {
    const match = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''));
    const user = match ? this.#users.get(match[1]!) : undefined;
    if (!user) return error(401, 'Token was invalid.', 6003);
    return handler(user);
  }

  #userJson(user: FakeMediumUser & { id: string }) {
    return {
      id: user.id,
      username: user.username,
      name: user.name ?? user.username,
      url: `https://medium.com/@${user.username}`,
      imageUrl: `https://cdn-images-1.medium.com/fit/c/400/400/${user.username}.png`,
    };
  }

  #upload(req: RecordedRequest, user: FakeMediumUser): FakeResponse {
    if (user.canUploadImages === false)
      return error(403, 'Application does not have permission to upload images.', 6027);
    const file = req.files.image;
    if (!file) return error(400, 'Missing image.', 6000);
    if (!imageTypes.has(file.type)) return error(400, `Unsupported image type: ${file.type}.`, 6001);
    const md5 = createHash('md5')
      .update(String(this.images.length) + file.name)
      .digest('hex');
    const image = {
      url: `${this.url}/images/${md5}.${file.type.split('/')[1]}`,
      md5,
      contentType: file.type,
      size: file.size,
    };
    this.images.push(image);
    return { status: 201, json: { data: { url: image.url, md5 } } };
  }

  #create(req: RecordedRequest, user: FakeMediumUser & { id: string }, authorId: string): FakeResponse {
    if (authorId !== user.id)
      return error(403, 'User does not have permission to publish to this user.', 6026);
    const input = (req.body ?? {}) as Record<string, unknown>;
    const title = typeof input.title === 'string' ? input.title : '';
    if (!title.trim()) return error(400, 'Title is required.', 6000);
    if ([...title].length > 100) return error(400, 'Title exceeds 100 characters.', 6000);
    if (input.contentFormat !== 'html' && input.contentFormat !== 'markdown')
      return error(400, 'Invalid contentFormat: must be "html" or "markdown".', 6000);
    if (typeof input.content !== 'string' || !input.content) return error(400, 'Content is required.', 6000);
    const status = input.publishStatus ?? 'public';
    if (status !== 'public' && status !== 'draft' && status !== 'unlisted')
      return error(400, 'Invalid publishStatus.', 6000);
    if (input.canonicalUrl !== undefined && !/^https?:\/\/\S+$/.test(String(input.canonicalUrl)))
      return error(400, 'Invalid canonicalUrl.', 6000);
    const tags = (Array.isArray(input.tags) ? input.tags.map(String) : [])
      .slice(0, 3)
      .filter((tag) => tag.length <= 25);
    const id = `e6f36a${(this.#nextId++).toString(16).padStart(6, '0')}`;
    const slug =
      title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'story';
    const post: FakeMediumPost = {
      id,
      authorId,
      title,
      contentFormat: input.contentFormat,
      content: input.content,
      tags,
      canonicalUrl: typeof input.canonicalUrl === 'string' ? input.canonicalUrl : null,
      publishStatus: status,
      url: `https://medium.com/@${user.username}/${slug}-${id}`,
    };
    this.posts.push(post);
    return {
      status: 201,
      json: {
        data: {
          id,
          title,
          authorId,
          tags,
          url: post.url,
          canonicalUrl: post.canonicalUrl ?? '',
          publishStatus: status,
          publishedAt: status === 'draft' ? null : Date.now(),
          license: 'all-rights-reserved',
          licenseUrl: 'https://medium.com/policy/9db0094a1e0f',
        },
      },
    };
  }
}

export function startFakeMedium(tokens: Record<string, FakeMediumUser>): Promise<FakeMedium> {
  return new FakeMedium(tokens).start();
}
