import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';
import {
  capabilities,
  escapeHtml,
  type FakeUser,
  type FakeWordPressMedia,
  type FakeWordPressOptions,
  type FakeWordPressPost,
  type FakeWordPressTerm,
  postJson,
  slugify,
  userJson,
  wpError,
} from './wordpress-shapes.ts';

export type * from './wordpress-shapes.ts';

/**
 * A WordPress site's REST API (`/wp-json/wp/v2`, or `?rest_route=` with plain permalinks) as far
 * as posting goes: Basic auth with application passwords (WordPress's own error codes), roles
 * and their capabilities, the media library (multipart uploads with `alt_text`), categories and
 * tags (`term_exists` on a duplicate), posts with featured media, listing with `X-WP-Total`.
 */
export class FakeWordPress {
  readonly server = new FakeServer();
  readonly posts: FakeWordPressPost[] = [];
  readonly media: FakeWordPressMedia[] = [];
  readonly terms: FakeWordPressTerm[] = [];
  readonly #users: FakeUser[];
  readonly #options: FakeWordPressOptions;
  #nextId = 10;

  constructor(options: FakeWordPressOptions) {
    this.#options = options;
    this.#users = options.users.map((user, index) => ({
      id: index + 1,
      name: user.name ?? user.username,
      role: user.role ?? 'author',
      email: user.email ?? `${user.username}@example.test`,
      username: user.username,
      applicationPasswords: user.applicationPasswords,
    }));
    this.terms.push({ id: 1, taxonomy: 'category', name: 'Uncategorized', slug: 'uncategorized', count: 0 });
    this.server.route('GET', /.*/, (req) => this.#dispatch(req));
    this.server.route('POST', /.*/, (req) => this.#dispatch(req));
  }

  /** The site address (with its subdirectory), as a user types it. */
  get url(): string {
    return `${this.server.url}${this.#options.path ?? ''}`;
  }

  credentials(username: string, applicationPassword: string): Record<string, string> {
    return { siteUrl: this.url, username, applicationPassword };
  }

  /** Requests that reached one REST route (method optional), in order. */
  calls(route: string | RegExp, method?: string): RecordedRequest[] {
    return this.server.requests.filter((r) => {
      const at = this.#route(r);
      if (at === undefined || (method && r.method !== method)) return false;
      return typeof route === 'string' ? at === route : route.test(at);
    });
  }

  /** The next `times` REST requests (optionally only on one route) answer 429 with Retry-After. */
  rateLimit(options: { times?: number; retryAfterSeconds?: number; path?: RegExp } = {}): void {
    this.server.inject({
      times: options.times ?? 1,
      ...(options.path ? { path: options.path } : {}),
      status: 429,
      headers: { 'retry-after': String(options.retryAfterSeconds ?? 0) },
      json: { code: 'too_many_requests', message: 'Too many requests.', data: { status: 429 } },
    });
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** The REST route a request asked for, or undefined for a page of the site. */
  #route(req: RecordedRequest): string | undefined {
    const base = this.#options.path ?? '';
    if (!req.path.startsWith(`${base}/`)) return undefined;
    const rest = req.path.slice(base.length);
    const queryRoute = req.query.get('rest_route');
    if ((rest === '/' || rest === '/index.php') && queryRoute !== null) return queryRoute || '/';
    if (this.#options.plainPermalinks) return undefined;
    if (rest === '/wp-json' || rest === '/wp-json/') return '/';
    return rest.startsWith('/wp-json/') ? rest.slice('/wp-json'.length).replace(/\/$/, '') || '/' : undefined;
  }

  async #dispatch(req: RecordedRequest): Promise<FakeResponse> {
    const route = this.#route(req);
    const base = this.#options.path ?? '';
    if (this.#options.plainPermalinks && req.path.startsWith(`${base}/wp-json`) && !req.path.endsWith('/')) {
      // WordPress's canonical redirect adds the trailing slash; the page there is a 404.
      const query = req.query.toString();
      return {
        status: 301,
        headers: { location: `${this.server.url}${req.path}/${query ? `?${query}` : ''}` },
      };
    }
    if (route === undefined) {
      return {
        status: 404,
        headers: { 'content-type': 'text/html' },
        text: '<html><body><h1>Page not found</h1></body></html>',
      };
    }
    if (route === '/' && req.method === 'GET') {
      return this.#fields(req, {
        name: this.#options.siteName ?? 'Fake Blog',
        description: 'Just another WordPress site',
        url: this.url,
        home: this.url,
        namespaces: ['oembed/1.0', 'wp/v2'],
      });
    }
    const login = this.#authenticate(req);
    if (login.refused) return login.refused;
    const { user } = login;
    const post = /^\/wp\/v2\/posts\/(\d+)$/.exec(route);
    const taxonomy = /^\/wp\/v2\/(categories|tags)$/.exec(route)?.[1];
    if (route === '/wp/v2/users/me' && req.method === 'GET') {
      return user ? this.#fields(req, userJson(this.url, user)) : this.#notLoggedIn();
    }
    if (route === '/wp/v2/media' && req.method === 'POST') return this.#upload(req, user);
    if (taxonomy && req.method === 'GET') return this.#listTerms(req, taxonomy);
    if (taxonomy && req.method === 'POST') return this.#createTerm(req, user, taxonomy);
    if (route === '/wp/v2/posts' && req.method === 'POST') return this.#createPost(req, user);
    if (route === '/wp/v2/posts' && req.method === 'GET') return this.#listPosts(req, user);
    if (post && req.method === 'GET') return this.#getPost(req, user, Number(post[1]));
    if (route === '/wp/v2/comments' && req.method === 'GET') return this.#comments(req);
    return wpError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
  }

  /** The request's user, undefined when anonymous, or the 401 WordPress answers a bad login with. */
  #authenticate(req: RecordedRequest): { user?: FakeUser; refused?: FakeResponse } {
    const header = String(req.headers.authorization ?? '');
    if (!header.startsWith('Basic ') || this.#options.applicationPasswordsDisabled) return {};
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const login = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1).replace(/[^a-z\d]/gi, '');
    const user = this.#users.find((u) => u.username === login || u.email === login);
    if (!user) {
      return {
        refused: wpError(401, 'invalid_username', 'Unknown username. Check again or try your email address.'),
      };
    }
    if (!user.applicationPasswords.some((p) => p.replace(/[^a-z\d]/gi, '') === password)) {
      return {
        refused: wpError(
          401,
          'incorrect_password',
          'The provided password is an invalid application password.',
        ),
      };
    }
    return { user };
  }

  #notLoggedIn(): FakeResponse {
    return wpError(401, 'rest_not_logged_in', 'You are not currently logged in.');
  }

  #can(user: FakeUser | undefined, capability: string): boolean {
    return user !== undefined && capabilities[user.role].includes(capability);
  }

  /** `_fields` keeps only the named top-level fields, as WordPress does for every answer. */
  #fields(req: RecordedRequest, json: unknown, init: Partial<FakeResponse> = {}): FakeResponse {
    const fields = req.query.get('_fields')?.split(',').filter(Boolean);
    const pick = (item: Record<string, unknown>) =>
      fields ? Object.fromEntries(Object.entries(item).filter(([key]) => fields.includes(key))) : item;
    const body = Array.isArray(json) ? json.map(pick) : pick(json as Record<string, unknown>);
    return { status: 200, ...init, json: body };
  }

  async #upload(req: RecordedRequest, user: FakeUser | undefined): Promise<FakeResponse> {
    if (!this.#can(user, 'upload_files')) {
      return wpError(
        user ? 403 : 401,
        'rest_cannot_create',
        'Sorry, you are not allowed to upload media on this site.',
      );
    }
    const file = req.files.file;
    if (!file) return wpError(400, 'rest_upload_no_data', 'No data supplied.');
    const allowed = this.#options.allowedTypes ?? ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
    if (!allowed.includes(file.type)) {
      return wpError(
        500,
        'rest_upload_sideload_error',
        'Sorry, you are not allowed to upload this file type.',
      );
    }
    const fields = (req.body ?? {}) as Record<string, string>;
    const id = this.#nextId++;
    const media: FakeWordPressMedia = {
      id,
      author: user!.id,
      filename: file.name,
      mimeType: file.type,
      size: file.size,
      altText: fields.alt_text ?? '',
      sourceUrl: `${this.url}/wp-content/uploads/2026/11/${file.name}`,
    };
    this.media.push(media);
    return {
      status: 201,
      json: {
        id,
        type: 'attachment',
        alt_text: media.altText,
        media_type: 'image',
        mime_type: media.mimeType,
        source_url: media.sourceUrl,
        link: `${this.url}/?attachment_id=${id}`,
      },
    };
  }

  #listTerms(req: RecordedRequest, taxonomy: string): FakeResponse {
    const kind = taxonomy === 'categories' ? 'category' : 'post_tag';
    const search = req.query.get('search')?.toLowerCase();
    let terms = this.terms.filter(
      (t) => t.taxonomy === kind && (!search || t.name.toLowerCase().includes(search)),
    );
    if (req.query.get('orderby') === 'count') terms = [...terms].sort((a, b) => b.count - a.count);
    const perPage = Number(req.query.get('per_page') ?? 10);
    if (!(perPage >= 1 && perPage <= 100)) {
      return wpError(400, 'rest_invalid_param', 'Invalid parameter(s): per_page', {
        params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' },
      });
    }
    const json = terms.slice(0, perPage).map((t) => ({
      id: t.id,
      count: t.count,
      name: escapeHtml(t.name),
      slug: t.slug,
      taxonomy: t.taxonomy,
    }));
    return this.#fields(req, json, {
      headers: {
        'x-wp-total': String(terms.length),
        'x-wp-totalpages': String(Math.ceil(terms.length / perPage)),
      },
    });
  }

  #createTerm(req: RecordedRequest, user: FakeUser | undefined, taxonomy: string): FakeResponse {
    const kind = taxonomy === 'categories' ? 'category' : 'post_tag';
    // Hierarchical taxonomies need edit_terms (manage_categories); tags need only assign_terms.
    if (!this.#can(user, kind === 'category' ? 'manage_categories' : 'edit_posts')) {
      return wpError(
        user ? 403 : 401,
        'rest_cannot_create',
        'Sorry, you are not allowed to create terms in this taxonomy.',
      );
    }
    const name = String((req.body as { name?: unknown } | undefined)?.name ?? '').trim();
    if (!name)
      return wpError(400, 'rest_missing_callback_param', 'Missing parameter(s): name', { params: ['name'] });
    const existing = this.terms.find(
      (t) => t.taxonomy === kind && t.name.toLowerCase() === name.toLowerCase(),
    );
    if (existing) {
      return wpError(400, 'term_exists', 'A term with the name provided already exists with this parent.', {
        term_id: existing.id,
      });
    }
    const term: FakeWordPressTerm = {
      id: this.#nextId++,
      taxonomy: kind,
      name,
      slug: slugify(name),
      count: 0,
    };
    this.terms.push(term);
    return {
      status: 201,
      json: { id: term.id, count: 0, name: escapeHtml(name), slug: term.slug, taxonomy: kind },
    };
  }

  #createPost(req: RecordedRequest, user: FakeUser | undefined): FakeResponse {
    if (!this.#can(user, 'edit_posts')) {
      return wpError(
        user ? 403 : 401,
        'rest_cannot_create',
        'Sorry, you are not allowed to create posts as this user.',
      );
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const status = typeof body.status === 'string' ? body.status : 'draft';
    if (!['publish', 'future', 'draft', 'pending', 'private'].includes(status)) {
      return wpError(400, 'rest_invalid_param', 'Invalid parameter(s): status', {
        params: { status: 'status is not one of publish, future, draft, pending, private.' },
      });
    }
    if (['publish', 'future', 'private'].includes(status) && !this.#can(user, 'publish_posts')) {
      return wpError(
        403,
        'rest_cannot_publish',
        'Sorry, you are not allowed to publish posts in this post type.',
      );
    }
    const featuredMedia = Number(body.featured_media ?? 0);
    if (featuredMedia && !this.media.some((m) => m.id === featuredMedia)) {
      return wpError(400, 'rest_invalid_featured_media', 'Invalid featured media ID.');
    }
    const ids = (name: string, kind: FakeWordPressTerm['taxonomy']) => {
      const list = Array.isArray(body[name]) ? (body[name] as unknown[]).map(Number) : [];
      return list.every((id) => this.terms.some((t) => t.id === id && t.taxonomy === kind))
        ? list
        : undefined;
    };
    const categories = ids('categories', 'category');
    const tags = ids('tags', 'post_tag');
    if (!categories || !tags) return wpError(400, 'rest_invalid_term_id', 'Invalid term ID.');
    const title = typeof body.title === 'string' ? body.title : '';
    const post: FakeWordPressPost = {
      id: this.#nextId++,
      author: user!.id,
      title,
      content: typeof body.content === 'string' ? body.content : '',
      excerpt: typeof body.excerpt === 'string' ? body.excerpt : '',
      status,
      categories: categories.length ? categories : [1],
      tags,
      featuredMedia,
      dateGmt: status === 'draft' ? null : new Date().toISOString().slice(0, 19),
      slug: slugify(title),
      comments: 0,
    };
    for (const id of [...post.categories, ...post.tags]) this.terms.find((t) => t.id === id)!.count++;
    this.posts.push(post);
    return {
      status: 201,
      headers: { location: `${this.url}/wp-json/wp/v2/posts/${post.id}` },
      json: postJson(this.url, post, true),
    };
  }

  #listPosts(req: RecordedRequest, user: FakeUser | undefined): FakeResponse {
    const statuses = (req.query.get('status') ?? 'publish').split(',');
    const edit = req.query.get('context') === 'edit';
    if ((edit || statuses.some((s) => s !== 'publish')) && !this.#can(user, 'edit_posts')) {
      return wpError(
        user ? 403 : 401,
        'rest_forbidden_context',
        'Sorry, you are not allowed to edit posts in this post type.',
      );
    }
    const search = req.query.get('search')?.toLowerCase();
    const found = this.posts
      .filter(
        (p) =>
          statuses.includes(p.status) &&
          (!search || `${p.title} ${p.content}`.toLowerCase().includes(search)),
      )
      .reverse()
      .slice(0, Number(req.query.get('per_page') ?? 10));
    return this.#fields(
      req,
      found.map((p) => postJson(this.url, p, edit)),
      { headers: { 'x-wp-total': String(found.length) } },
    );
  }

  #getPost(req: RecordedRequest, user: FakeUser | undefined, id: number): FakeResponse {
    const post = this.posts.find((p) => p.id === id && p.status !== 'deleted');
    if (!post) return wpError(404, 'rest_post_invalid_id', 'Invalid post ID.');
    const edit = req.query.get('context') === 'edit';
    if (edit && !this.#can(user, 'edit_posts')) {
      return wpError(
        user ? 403 : 401,
        'rest_forbidden_context',
        'Sorry, you are not allowed to edit this post.',
      );
    }
    return this.#fields(req, postJson(this.url, post, edit));
  }

  #comments(req: RecordedRequest): FakeResponse {
    const post = this.posts.find((p) => p.id === Number(req.query.get('post')));
    const total = post?.comments ?? 0;
    const shown = Math.min(total, Number(req.query.get('per_page') ?? 10));
    const json = Array.from({ length: shown }, (_, i) => ({ id: 1000 + i, post: post?.id }));
    return this.#fields(req, json, {
      headers: { 'x-wp-total': String(total), 'x-wp-totalpages': String(total ? 1 : 0) },
    });
  }

  /** Moves a post to the trash, or deletes it for good (`permanently`), as its author would. */
  trash(id: number, permanently = false): void {
    const post = this.posts.find((p) => p.id === id);
    if (post) post.status = permanently ? 'deleted' : 'trash';
  }
}

export function startFakeWordPress(options: FakeWordPressOptions): Promise<FakeWordPress> {
  return new FakeWordPress(options).start();
}
