import { type FakeResponse, FakeServer, type RecordedRequest } from './fake-server.ts';

export interface FakeHashnodePublication {
  id: string;
  title: string;
  /** e.g. `https://alice.hashnode.dev` */
  url: string;
  /** Hashnode lets the API write only to publications on the Pro plan; false answers FORBIDDEN. */
  pro?: boolean;
}

export interface FakeHashnodeUser {
  id?: string;
  username: string;
  name?: string;
  publications: FakeHashnodePublication[];
}

export interface FakeHashnodePost {
  id: string;
  kind: 'post' | 'draft';
  publicationId: string;
  title: string;
  subtitle: string | null;
  contentMarkdown: string;
  tags: { slug: string; name: string }[];
  coverImageURL: string | null;
  originalArticleURL: string | null;
  url: string | null;
  at: string;
}

type Json = Record<string, unknown>;

const gqlError = (message: string, code: string, status = 200): FakeResponse => ({
  status,
  json: { errors: [{ message, extensions: { code } }], data: null },
});

/**
 * Hashnode's GraphQL API (apidocs.hashnode.com) as far as publishing goes, at `POST /`: the
 * Personal Access Token as the bare `Authorization` header, errors as HTTP 200 with
 * `errors[].extensions.code` (`UNAUTHENTICATED`, `FORBIDDEN`, `BAD_USER_INPUT`, `NOT_FOUND`), `me`
 * with its publications, `publishPost` and `createDraft` (title, subtitle, contentMarkdown,
 * publicationId, tags as `{ slug, name }`, at most 5, coverImageOptions, originalArticleURL), and
 * a publication's latest `posts` and `drafts`. Operations are told apart by their top-level field.
 */
export class FakeHashnode {
  readonly server = new FakeServer();
  readonly posts: FakeHashnodePost[] = [];
  readonly #users = new Map<string, FakeHashnodeUser & { id: string }>();
  #next = 1;

  constructor(tokens: Record<string, FakeHashnodeUser>) {
    let n = 1;
    for (const [token, user] of Object.entries(tokens))
      this.#users.set(token, {
        ...user,
        id: user.id ?? `65a1b2c3d4e5f60718293a${String(n++).padStart(2, '0')}`,
      });
    this.server.route('POST', /^\/$/, (req) => this.#graphql(req));
  }

  get url(): string {
    return this.server.url;
  }

  env(): Record<string, string> {
    return { HASHNODE_API_URL: this.url };
  }

  /** The top-level fields of the operations received, in order (`me`, `publishPost`...). */
  operations(): string[] {
    return this.server.requests.map((r) => topField(String((r.body as Json | undefined)?.query ?? '')));
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  #graphql(req: RecordedRequest): FakeResponse {
    const body = req.body as { query?: unknown; variables?: Json } | undefined;
    if (typeof body?.query !== 'string') return gqlError('Must provide query string.', 'BAD_REQUEST', 400);
    const field = topField(body.query);
    const user = this.#users.get(String(req.headers.authorization ?? ''));
    const variables = body.variables ?? {};
    switch (field) {
      case 'me':
        if (!user) return gqlError('You must be authenticated.', 'UNAUTHENTICATED');
        return { json: { data: { me: this.#me(user) } } };
      case 'publishPost':
      case 'createDraft':
        if (!user) return gqlError('You must be authenticated.', 'UNAUTHENTICATED');
        return this.#write(user, field, (variables.input ?? {}) as Json);
      case 'publication':
        return this.#publication(user, String(variables.id ?? ''));
      default:
        return gqlError(`Cannot query field "${field}" on type "Query".`, 'GRAPHQL_VALIDATION_FAILED', 400);
    }
  }

  #me(user: FakeHashnodeUser & { id: string }): Json {
    return {
      id: user.id,
      username: user.username,
      name: user.name ?? user.username,
      profilePicture: `https://cdn.hashnode.com/res/hashnode/image/upload/${user.username}.png`,
      publications: {
        edges: user.publications.map((p) => ({
          node: { id: p.id, title: p.title, url: p.url },
          role: 'OWNER',
        })),
      },
    };
  }

  #write(user: FakeHashnodeUser, field: 'publishPost' | 'createDraft', input: Json): FakeResponse {
    const publication = user.publications.find((p) => p.id === input.publicationId);
    if (!publication) return gqlError('User is not a member of the publication.', 'FORBIDDEN');
    if (publication.pro === false)
      return gqlError('Publishing through the API requires Hashnode Pro for this publication.', 'FORBIDDEN');
    const title = typeof input.title === 'string' ? input.title : '';
    if (!title.trim()) return gqlError('Title is required.', 'BAD_USER_INPUT');
    if ([...title].length > 250) return gqlError('Title must be at most 250 characters.', 'BAD_USER_INPUT');
    if (field === 'publishPost' && typeof input.contentMarkdown !== 'string')
      return gqlError('contentMarkdown is required.', 'BAD_USER_INPUT');
    const tags = Array.isArray(input.tags) ? (input.tags as Json[]) : [];
    if (tags.length > 5) return gqlError('A post can have at most 5 tags.', 'BAD_USER_INPUT');
    if (
      tags.some(
        (t) => typeof t.slug !== 'string' || typeof t.name !== 'string' || !/^[a-z0-9-]+$/.test(t.slug),
      )
    )
      return gqlError('Each tag needs a slug and a name.', 'BAD_USER_INPUT');
    const cover = (input.coverImageOptions as Json | undefined)?.coverImageURL;
    for (const url of [cover, input.originalArticleURL]) {
      if (url !== undefined && !/^https?:\/\/\S+$/.test(String(url)))
        return gqlError(`Invalid URL: ${String(url)}`, 'BAD_USER_INPUT');
    }
    const id = `66f0${(this.#next++).toString(16).padStart(20, '0')}`;
    const slug =
      title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'post';
    const saved: FakeHashnodePost = {
      id,
      kind: field === 'publishPost' ? 'post' : 'draft',
      publicationId: publication.id,
      title,
      subtitle: typeof input.subtitle === 'string' ? input.subtitle : null,
      contentMarkdown: typeof input.contentMarkdown === 'string' ? input.contentMarkdown : '',
      tags: tags.map((t) => ({ slug: String(t.slug), name: String(t.name) })),
      coverImageURL: typeof cover === 'string' ? cover : null,
      originalArticleURL: typeof input.originalArticleURL === 'string' ? input.originalArticleURL : null,
      url: field === 'publishPost' ? `${publication.url}/${slug}` : null,
      at: new Date().toISOString(),
    };
    this.posts.push(saved);
    return field === 'publishPost'
      ? { json: { data: { publishPost: { post: { id, slug, title, url: saved.url } } } } }
      : { json: { data: { createDraft: { draft: { id, slug, title } } } } };
  }

  #publication(user: FakeHashnodeUser | undefined, id: string): FakeResponse {
    const owner = [...this.#users.values()].find((u) => u.publications.some((p) => p.id === id));
    if (!owner) return { json: { data: { publication: null } } };
    const list = (kind: 'post' | 'draft') =>
      this.posts
        .filter((p) => p.publicationId === id && p.kind === kind)
        .reverse()
        .slice(0, 20)
        .map((p) => ({
          node:
            kind === 'post'
              ? { id: p.id, title: p.title, url: p.url, publishedAt: p.at }
              : { id: p.id, title: p.title, updatedAt: p.at },
        }));
    // Drafts are the members' only.
    if (user !== owner)
      return gqlError('You must be a member of the publication to see its drafts.', 'FORBIDDEN');
    const publication = owner.publications.find((p) => p.id === id)!;
    return {
      json: {
        data: {
          publication: {
            id,
            title: publication.title,
            url: publication.url,
            posts: { edges: list('post') },
            drafts: { edges: list('draft') },
          },
        },
      },
    };
  }
}

/** The first field selected by a GraphQL document's first operation (`mutation X { publishPost(...) }` → `publishPost`). */
function topField(query: string): string {
  const text = query.replace(/#[^\n]*/g, '');
  const open = text.indexOf('{');
  return /^\s*(\w+)/.exec(text.slice(open + 1))?.[1] ?? '';
}

export function startFakeHashnode(tokens: Record<string, FakeHashnodeUser>): Promise<FakeHashnode> {
  return new FakeHashnode(tokens).start();
}
