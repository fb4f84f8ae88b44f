import { isPlatformError } from '../../errors.ts';
import type { OptionChoice } from '../manifest.ts';
import type { RedditApi } from './api.ts';
import type { RedditKind } from './kind.ts';

/** What `GET /r/{sub}/about` says about what may be posted. */
export interface SubredditRules {
  /** `any`, `link` (no text posts) or `self` (text posts only). */
  submissionType: string;
  allowImages: boolean;
  allowVideos: boolean;
  /** `GET /api/v1/{sub}/post_requirements` → `is_flair_required`. */
  flairRequired: boolean;
  /** `body_restriction_policy`: `required`, `notAllowed` or `none`. */
  bodyPolicy: string;
}

export interface RedditFlair {
  id: string;
  text: string;
  textEditable: boolean;
  modOnly: boolean;
}

interface About {
  data?: { submission_type?: unknown; allow_images?: unknown; allow_videos?: unknown };
}
interface Requirements {
  is_flair_required?: unknown;
  body_restriction_policy?: unknown;
}
interface FlairTemplate {
  id?: unknown;
  text?: unknown;
  text_editable?: unknown;
  mod_only?: unknown;
}

const path = (subreddit: string) => encodeURIComponent(subreddit);

/** The subreddit's posting rules: its `about` and its `post_requirements`. */
export async function subredditRules(api: RedditApi, subreddit: string): Promise<SubredditRules> {
  const [about, requirements] = await Promise.all([
    api.call<About>(`/r/${path(subreddit)}/about`, {}, 'the subreddit lookup'),
    // Not every subreddit (nor every Reddit-compatible API) answers post requirements: without
    // them, the about page's rules still apply and Reddit judges flair at submit time.
    api
      .call<Requirements>(`/api/v1/${path(subreddit)}/post_requirements`, {}, 'the post requirements')
      .catch((error: unknown) => {
        if (isPlatformError(error) && error.status === 404) return undefined;
        throw error;
      }),
  ]);
  const data = about?.data ?? {};
  return {
    submissionType: typeof data.submission_type === 'string' ? data.submission_type : 'any',
    allowImages: data.allow_images !== false,
    allowVideos: data.allow_videos !== false,
    flairRequired: requirements?.is_flair_required === true,
    bodyPolicy:
      typeof requirements?.body_restriction_policy === 'string'
        ? requirements.body_restriction_policy
        : 'none',
  };
}

/**
 * `GET /r/{sub}/api/link_flair_v2`: the post flairs of the subreddit. A subreddit without post
 * flair answers 403, which is no flair to offer.
 */
export async function subredditFlairs(api: RedditApi, subreddit: string): Promise<RedditFlair[]> {
  const what = 'the flair list';
  let { response, body } = await api.answer(`/r/${path(subreddit)}/api/link_flair_v2`, {}, what);
  // The older `link_flair` answers the same templates where v2 is not served.
  if (response.status === 404 && !(body as { reason?: unknown } | undefined)?.reason)
    ({ response, body } = await api.answer(`/r/${path(subreddit)}/api/link_flair`, {}, what));
  // A 403 without a reason (private, banned…) and without a scope complaint: post flair is off.
  const plainForbidden =
    response.status === 403 &&
    !(body as { reason?: unknown } | undefined)?.reason &&
    !/insufficient_scope/.test(response.headers.get('www-authenticate') ?? '');
  if (plainForbidden) return [];
  if (!response.ok) throw api.failure(response, body, what);
  const list = body as FlairTemplate[];
  return (Array.isArray(list) ? list : []).flatMap((flair) =>
    typeof flair.id === 'string' && flair.id
      ? [
          {
            id: flair.id,
            text: typeof flair.text === 'string' ? flair.text : '',
            textEditable: flair.text_editable === true,
            modOnly: flair.mod_only === true,
          },
        ]
      : [],
  );
}

export function flairChoices(flairs: readonly RedditFlair[]): OptionChoice[] {
  return flairs.map((flair) => ({
    value: flair.id,
    label: `${flair.text || '(no text)'}${flair.textEditable ? ' (editable)' : ''}${flair.modOnly ? ' (moderators only)' : ''}`,
  }));
}

/** Why the subreddit refuses this kind of post, or undefined when it takes it. */
export function kindRefusal(rules: SubredditRules, kind: RedditKind): string | undefined {
  if (kind === 'self' && rules.submissionType === 'link')
    return 'This subreddit takes no text posts: post a link or media instead';
  if (kind !== 'self' && rules.submissionType === 'self')
    return 'This subreddit takes text posts only: remove the media or the link';
  if (kind === 'image' && !rules.allowImages) return 'This subreddit takes no image posts';
  if (kind === 'video' && !rules.allowVideos) return 'This subreddit takes no video posts';
  return undefined;
}
