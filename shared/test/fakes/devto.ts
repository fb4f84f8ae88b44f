import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

export interface FakeDevtoUser {
  id?: number;
  username: string;
  name?: string;
  /** A suspended user: every authenticated call answers 401, as Forem does. */
  suspended?: boolean;
}

export interface FakeDevtoArticle {
  id: number;
  userId: number;
  title: string;
  bodyMarkdown: string;
  published: boolean;
  publishedAt: string | null;
  tags: string[];
  canonicalUrl: string | null;
  mainImage: string | null;
  slug: string;
  views: number;
  reactions: number;
  comments: number;
  deleted?: boolean;
}

export interface FakeDevtoOptions {
  /** API key → user. */
  keys: Record<string, FakeDevtoUser>;
  /** Forem's write throttle: one POST a second per key (429 with Retry-After). Off unless set. */
  throttleWrites?: boolean;
}

const unauthorized: FakeResponse = { status: 401, json: { error: 'unauthorized', status: 401 } };
const unprocessable = (error: string): FakeResponse => ({ status: 422, json: { error, status: 422 } });

/**
 * Dev.to's Forem API v1 as far as publishing goes, under `/api`: the `api-key` header, articles
 * validated the way Forem validates them (title up to 128 characters, at most 4 alphanumeric
 * tags of up to 30 characters, errors as `{ error, status }`), `/users/me`, and the user's
 * articles with their view, reaction and comment counts.
 */
export class FakeDevto {
  readonly server = new FakeServer();
  readonly articles: FakeDevtoArticle[] = [];
  readonly #users = new Map<string, FakeDevtoUser & { id: number }>();
  readonly #lastWrite = new Map<string, number>();
  readonly #options: FakeDevtoOptions;
  #nextId = 1000;

  constructor(options: FakeDevtoOptions) {
    this.#options = options;
    let n = 1;
    for (const [key, user] of Object.entries(options.keys))
      this.#users.set(key, { ...user, id: user.id ?? n++ });
    const s = this.server;
    s.route('GET', /^\/api\/users\/me$/, (req) =>
      this.#authed(req, (user) => ({ json: this.#userJson(user) })),
    );
    s.route('POST', /^\/api\/articles$/, (req) => this.#authed(req, (user) => this.#create(req, user)));
    s.route('GET', /^\/api\/articles\/me(?:\/(all|published|unpublished))?$/, (req, m) =>
      this.#authed(req, (user) => this.#mine(req, user, m[1] ?? 'published')),
    );
    s.route('GET', /.*/, () => ({ status: 404, json: { error: 'not found', status: 404 } }));
    s.route('POST', /.*/, () => ({ status: 404, json: { error: 'not found', status: 404 } }));
  }

  /** The API base, as DEVTO_API_URL names it. */
  get url(): string {
    return `${this.server.url}/api`;
  }

  /** The variables that point the Dev.to publisher at this fake. */
  env(): Record<string, string> {
    return { DEVTO_API_URL: this.url };
  }

  calls(path: string, method?: string): RecordedRequest[] {
    return this.server.requests.filter((r) => r.path === `/api${path}` && (!method || r.method === method));
  }

  /** The next `times` requests answer 429 as Rack::Attack does: text body, Retry-After in seconds. */
  rateLimit(options: { times?: number; retryAfterSeconds?: number } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      status: 429,
      headers: { 'retry-after': String(options.retryAfterSeconds ?? 1), 'content-type': 'text/plain' },
      text: 'Retry later\n',
    });
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
    handler: (user: FakeDevtoUser & { id: number }) => FakeResponse,
  ): FakeResponse {
    const key = req.headers['api-key'];
    const user = typeof key === 'string' ? this.#users.get(key) : undefined;
    if (!user || user.suspended) return unauthorized;
    if (req.method === 'POST' && this.#options.throttleWrites) {
      const last = this.#lastWrite.get(String(key)) ?? 0;
      if (Date.now() - last < 1000) {
        return {
          status: 429,
          headers: { 'retry-after': '1', 'content-type': 'text/plain' },
          text: 'Retry later\n',
        };
      }
      this.#lastWrite.set(String(key), Date.now());
    }
    return handler(user);
  }

  #userJson(user: FakeDevtoUser & { id: number }): Record<string, unknown> {
    return {
      type_of: 'user',
      id: user.id,
      username: user.username,
      name: user.name ?? user.username,
      summary: null,
      joined_at: 'Jan 1, 2026',
      profile_image: `https://media.dev.example/${user.username}.png`,
    };
  }

  #create(req: RecordedRequest, user: FakeDevtoUser & { id: number }): FakeResponse {
    const article = (req.body as { article?: unknown } | undefined)?.article;
    if (!article || typeof article !== 'object' || Array.isArray(article)) {
      return unprocessable(
        `article param must be a JSON object. You provided article as a ${article === undefined ? 'NilClass' : 'String'}`,
      );
    }
    const input = article as Record<string, unknown>;
    const title = typeof input.title === 'string' ? input.title : '';
    const tags = Array.isArray(input.tags) ? input.tags.map(String) : [];
    const errors: string[] = [];
    if (title.trim() === '') errors.push("Title can't be blank");
    if ([...title].length > 128) errors.push('Title is too long (maximum is 128 characters)');
    if (tags.length > 4) errors.push('Tag list exceed the maximum of 4 tags');
    for (const tag of tags) {
      if ([...tag].length > 30) errors.push(`Tag "${tag}" is too long (maximum is 30 characters)`);
      else if (!/^[\p{L}\p{N}]+$/u.test(tag)) {
        errors.push(`Tag "${tag}" contains non-alphanumeric or prohibited unicode characters`);
      }
    }
    for (const field of ['main_image', 'canonical_url']) {
      const value = input[field];
      if (value !== undefined && value !== null && !/^https?:\/\/\S+$/.test(String(value))) {
        errors.push(`${field === 'main_image' ? 'Main image' : 'Canonical url'} must be a valid URL`);
      }
    }
    if (errors.length) return unprocessable(errors.join(', '));
    const published = input.published === true;
    const slug = `${
      title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'article'
    }-${(this.#nextId + 1).toString(36)}`;
    const saved: FakeDevtoArticle = {
      id: this.#nextId++,
      userId: user.id,
      title,
      bodyMarkdown: typeof input.body_markdown === 'string' ? input.body_markdown : '',
      published,
      publishedAt: published ? new Date().toISOString() : null,
      tags: tags.map((t) => t.toLowerCase()),
      canonicalUrl: typeof input.canonical_url === 'string' ? input.canonical_url : null,
      mainImage: typeof input.main_image === 'string' ? input.main_image : null,
      slug,
      views: 0,
      reactions: 0,
      comments: 0,
    };
    this.articles.push(saved);
    return {
      status: 201,
      headers: { location: this.#articleUrl(saved, user) },
      json: {
        type_of: 'article',
        id: saved.id,
        title,
        slug,
        path: `/${user.username}/${slug}`,
        url: this.#articleUrl(saved, user),
        published,
        published_at: saved.publishedAt,
        tag_list: saved.tags.join(', '),
        tags: saved.tags,
        body_markdown: saved.bodyMarkdown,
        cover_image: saved.mainImage,
        canonical_url: saved.canonicalUrl ?? this.#articleUrl(saved, user),
        user: { name: user.name ?? user.username, username: user.username },
      },
    };
  }

  #articleUrl(article: FakeDevtoArticle, user: FakeDevtoUser): string {
    return `${this.server.url}/${user.username}/${article.slug}`;
  }

  /** `/api/articles/me[/status]`: unpublished first (newest first), then published by date. */
  #mine(req: RecordedRequest, user: FakeDevtoUser & { id: number }, status: string): FakeResponse {
    const perPage = Math.min(Number(req.query.get('per_page') ?? 30), 1000);
    const page = Math.max(Number(req.query.get('page') ?? 1), 1);
    const own = this.articles.filter((a) => a.userId === user.id && !a.deleted);
    const unpublished = own.filter((a) => !a.published).reverse();
    const published = own.filter((a) => a.published).reverse();
    const list =
      status === 'all' ? [...unpublished, ...published] : status === 'unpublished' ? unpublished : published;
    const json = list.slice((page - 1) * perPage, page * perPage).map((a) => ({
      type_of: 'article',
      id: a.id,
      title: a.title,
      published: a.published,
      published_at: a.publishedAt,
      slug: a.slug,
      path: `/${user.username}/${a.slug}`,
      url: this.#articleUrl(a, user),
      comments_count: a.comments,
      public_reactions_count: a.reactions,
      page_views_count: a.views,
      body_markdown: a.bodyMarkdown,
      tag_list: a.tags,
      cover_image: a.mainImage,
    }));
    return { json };
  }
}

export function startFakeDevto(options: FakeDevtoOptions): Promise<FakeDevto> {
  return new FakeDevto(options).start();
}
