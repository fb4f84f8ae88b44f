import { PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import type { PublishResult } from '../types.ts';
import type { RedditApi } from './api.ts';
import { type RedditErrorTuple, redditJsonError } from './errors.ts';
import type { RedditKind } from './kind.ts';
import { uploadMedia, uploadPoster } from './media.ts';
import type { RedditOptions } from './options.ts';

interface SubmitAnswer {
  json?: {
    errors?: RedditErrorTuple[];
    data?: { id?: string; name?: string; url?: string; user_submitted_page?: string; websocket_url?: string };
  };
}

interface Listing {
  data?: {
    children?: {
      data?: {
        id?: string;
        name?: string;
        title?: string;
        author?: string;
        permalink?: string;
        created_utc?: number;
      };
    }[];
  };
}

/** Reddit's web host for links to posts (the API host is oauth.reddit.com). */
const webHost = 'https://www.reddit.com';

/** Polls of the subreddit's new posts for an image or video post Reddit answered without an id. */
const findAttempts = 3;

/**
 * `POST /api/submit` (`api_type=json`): `self` with the message as `text`, `link` with it as `url`,
 * `image` and `video` with the URL of the file uploaded through the media lease (a video also
 * with a poster). Errors come back as `json.errors` under HTTP 200.
 */
export async function submitPost(input: {
  api: RedditApi;
  subreddit: string;
  kind: RedditKind;
  message: string;
  media: MediaFile | undefined;
  options: RedditOptions;
  signal: AbortSignal;
  username: () => Promise<string>;
}): Promise<PublishResult> {
  const { api, subreddit, kind, options, signal } = input;
  const title = (options.title ?? '').trim();
  const form: Record<string, string> = {
    api_type: 'json',
    sr: subreddit,
    kind,
    title,
    resubmit: 'true',
    sendreplies: 'true',
    nsfw: String(options.nsfw === true),
    spoiler: String(options.spoiler === true),
    ...(options.flairId ? { flair_id: options.flairId } : {}),
    ...(options.flairText ? { flair_text: options.flairText } : {}),
  };
  let assetId: string | undefined;
  if (kind === 'self') form.text = input.message;
  else if (kind === 'link') form.url = input.message.trim();
  else {
    if (!input.media) throw new PlatformError('media_rejected', 'A Reddit media post needs its file');
    const uploaded = await uploadMedia(api, input.media, signal);
    assetId = uploaded.assetId;
    form.url = uploaded.url;
    if (kind === 'video') form.video_poster_url = (await uploadPoster(api, signal)).url;
  }
  const answer = await api.call<SubmitAnswer>('/api/submit', { form }, 'the post');
  const errors = answer?.json?.errors ?? [];
  if (errors.length > 0) throw redditJsonError(errors, 'the post');
  const data = answer?.json?.data ?? {};
  const id = data.name ?? (data.id ? `t3_${data.id}` : undefined);
  if (id) return { platformPostId: id, ...(data.url ? { url: data.url } : {}) };
  // Image and video posts are answered with a websocket to wait on instead of the post: the post
  // is found among the subreddit's newest instead.
  // The post is out whatever these lookups answer: their failure only costs the post's id.
  for (let attempt = 0; attempt < findAttempts; attempt++) {
    const found = await findOwnPost(api, subreddit, title, await input.username(), undefined).catch(
      () => undefined,
    );
    if (found) return found;
    if (attempt < findAttempts - 1) await sleep(500 * 2 ** attempt, signal);
  }
  if (assetId)
    return {
      platformPostId: `asset:${assetId}`,
      ...(data.user_submitted_page ? { url: data.user_submitted_page } : {}),
    };
  throw new PlatformError('internal', 'Reddit accepted the post but named neither it nor its media');
}

/** A post of ours with this title among the subreddit's newest (since `since`, when given). */
export async function findOwnPost(
  api: RedditApi,
  subreddit: string,
  title: string,
  username: string,
  since: Date | undefined,
): Promise<PublishResult | undefined> {
  const listing = await api.call<Listing>(
    `/r/${encodeURIComponent(subreddit)}/new`,
    { query: { limit: '50' } },
    'the lookup of new posts',
  );
  const oldest = since ? since.getTime() / 1000 - 60 : 0;
  const post = (listing?.data?.children ?? [])
    .map((child) => child.data ?? {})
    .find(
      (p) =>
        p.title === title &&
        p.author?.toLowerCase() === username.toLowerCase() &&
        (p.created_utc ?? 0) >= oldest,
    );
  const id = post?.name ?? (post?.id ? `t3_${post.id}` : undefined);
  if (!id) return undefined;
  return { platformPostId: id, ...(post?.permalink ? { url: `${webHost}${post.permalink}` } : {}) };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
