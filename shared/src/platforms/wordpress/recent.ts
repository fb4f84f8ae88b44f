import type { PublishResult } from '../types.ts';
import type { WordPressApi } from './api.ts';

interface ListedPost {
  id?: unknown;
  link?: unknown;
  title?: { raw?: unknown };
  date_gmt?: unknown;
}

/** How far before an attempt a found post may be dated: clocks of the site and ours differ. */
const clockSlackMs = 10 * 60_000;

/**
 * The site's post with exactly this title created since `since` (an attempt whose answer was
 * lost), among its latest ones in any status; undefined when there is none or the site cannot be
 * asked (the publish then goes ahead).
 */
export async function findRecentPost(
  api: WordPressApi,
  title: string,
  since: number,
): Promise<PublishResult | undefined> {
  try {
    const { body } = await api.request<ListedPost[]>({
      method: 'GET',
      route: '/wp/v2/posts',
      query: {
        search: title.slice(0, 200),
        status: 'publish,future,draft,pending,private',
        orderby: 'date',
        order: 'desc',
        per_page: '20',
        context: 'edit',
        _fields: 'id,link,title,date_gmt',
      },
      operation: 'read',
    });
    if (!Array.isArray(body)) return undefined;
    const match = body.find((post) => {
      if (typeof post.id !== 'number' || post.title?.raw !== title) return false;
      // A draft has no GMT date until it is published; it is recent enough to be ours.
      if (typeof post.date_gmt !== 'string') return true;
      return Date.parse(`${post.date_gmt}Z`) >= since - clockSlackMs;
    });
    if (!match) return undefined;
    return {
      platformPostId: String(match.id),
      ...(typeof match.link === 'string' && /^https?:\/\//.test(match.link) ? { url: match.link } : {}),
    };
  } catch {
    return undefined;
  }
}
