/** The data and answer shapes of the fake WordPress (`wordpress.ts`). */

export type FakeWordPressRole = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

export interface FakeWordPressUser {
  username: string;
  email?: string;
  name?: string;
  role?: FakeWordPressRole;
  /** Application passwords of this user, as WordPress shows them (spaces are ignored on login). */
  applicationPasswords: string[];
}

export interface FakeWordPressOptions {
  users: FakeWordPressUser[];
  siteName?: string;
  /** The site's subdirectory (`/blog`): every URL of the site starts with it. */
  path?: string;
  /** Plain permalinks: `/wp-json/` is a theme's 404 page; the API answers only at `?rest_route=`. */
  plainPermalinks?: boolean;
  /** Application passwords unavailable (no HTTPS): Basic auth is ignored, every request is anonymous. */
  applicationPasswordsDisabled?: boolean;
  /** Media types uploads accept (WordPress's allowed mime types). */
  allowedTypes?: string[];
}

export interface FakeWordPressTerm {
  id: number;
  taxonomy: 'category' | 'post_tag';
  name: string;
  slug: string;
  count: number;
}

export interface FakeWordPressMedia {
  id: number;
  author: number;
  filename: string;
  mimeType: string;
  size: number;
  altText: string;
  sourceUrl: string;
}

export interface FakeWordPressPost {
  id: number;
  author: number;
  title: string;
  content: string;
  excerpt: string;
  status: string;
  categories: number[];
  tags: number[];
  featuredMedia: number;
  dateGmt: string | null;
  slug: string;
  /** Approved comments (set by tests). */
  comments: number;
}

export type FakeUser = Required<Omit<FakeWordPressUser, 'email'>> & { id: number; email: string };

export const capabilities: Record<FakeWordPressRole, string[]> = {
  administrator: ['read', 'edit_posts', 'publish_posts', 'upload_files', 'manage_categories'],
  editor: ['read', 'edit_posts', 'publish_posts', 'upload_files', 'manage_categories'],
  author: ['read', 'edit_posts', 'publish_posts', 'upload_files'],
  contributor: ['read', 'edit_posts'],
  subscriber: ['read'],
};

export const wpError = (
  status: number,
  code: string,
  message: string,
  data: Record<string, unknown> = {},
) => ({
  status,
  json: { code, message, data: { status, ...data } },
});
export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const slugify = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'post';

/** A post as the REST API shows it (`edit`: with the raw fields of context=edit). */
export function postJson(url: string, post: FakeWordPressPost, edit: boolean): Record<string, unknown> {
  const raw = (value: string, rendered: string) => (edit ? { raw: value, rendered } : { rendered });
  return {
    id: post.id,
    date_gmt: post.dateGmt,
    slug: post.slug,
    status: post.status,
    type: 'post',
    link: post.status === 'publish' ? `${url}/${post.slug}/` : `${url}/?p=${post.id}`,
    title: raw(post.title, escapeHtml(post.title)),
    content: { ...raw(post.content, post.content), protected: false },
    excerpt: { ...raw(post.excerpt, post.excerpt ? `<p>${post.excerpt}</p>` : ''), protected: false },
    author: post.author,
    featured_media: post.featuredMedia,
    categories: post.categories,
    tags: post.tags,
  };
}

/** `GET /wp/v2/users/me?context=edit`. */
export function userJson(url: string, user: FakeUser): Record<string, unknown> {
  return {
    id: user.id,
    name: user.name,
    slug: user.username.toLowerCase(),
    link: `${url}/author/${user.username}/`,
    avatar_urls: { '24': `${url}/avatar-24.png`, '96': `${url}/avatar-96.png` },
    roles: [user.role],
    capabilities: Object.fromEntries(capabilities[user.role].map((c) => [c, true])),
  };
}
