import { PlatformError } from '../../errors.ts';
import type { RefreshingToken } from '../refreshing-token.ts';
import type { AccountProfile } from '../types.ts';
import { tumblrFetch } from './api.ts';
import type { TumblrConfig } from './config.ts';
import type { TumblrCredentials } from './options.ts';

/** A blog of `GET /v2/user/info`. */
export interface TumblrBlog {
  name: string;
  title?: string;
  uuid?: string;
  primary?: boolean;
  url?: string;
  avatar?: { url?: string; width?: number }[];
}

export interface TumblrUser {
  name: string;
  blogs: TumblrBlog[];
}

/** `GET /v2/user/info`: the login and every blog it can post to. */
export async function readTumblrUser(
  token: RefreshingToken<TumblrCredentials>,
  config: TumblrConfig,
  signal: AbortSignal | undefined,
): Promise<TumblrUser> {
  const answer = await tumblrFetch<{ user?: { name?: unknown; blogs?: unknown } }>(
    token,
    `${config.apiUrl}/v2/user/info`,
    { method: 'GET', what: 'the account lookup', signal },
  );
  const user = answer?.user;
  if (!user || typeof user.name !== 'string' || !Array.isArray(user.blogs))
    throw new PlatformError('platform_unavailable', 'Tumblr answered the account lookup without a user');
  const blogs = (user.blogs as TumblrBlog[]).filter(
    (blog) => blog && typeof blog.name === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(blog.name),
  );
  return { name: user.name, blogs };
}

export function blogProfile(blog: TumblrBlog): AccountProfile {
  const avatar = [...(blog.avatar ?? [])]
    .sort((a, b) => (a.width ?? 0) - (b.width ?? 0))
    .find((a) => (a.width ?? 0) >= 64);
  return {
    name: blog.title?.trim().slice(0, 100) || blog.name,
    username: blog.name,
    platformAccountId: blog.name,
    ...(avatar?.url && /^https:\/\/\S{1,2000}$/.test(avatar.url) ? { avatarUrl: avatar.url } : {}),
  };
}

/** One opaque, stable id of the login, for shared grants: the primary blog's uuid, else the user name. */
export function loginKey(user: TumblrUser): string {
  return user.blogs.find((blog) => blog.primary)?.uuid ?? user.name;
}
