import { PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { sleep } from '../../publish/retry.ts';
import type { PostContent } from '../types.ts';
import { threadsCall } from './api.ts';
import type { ThreadsConfig } from './config.ts';
import type { ThreadsOptions } from './options.ts';

/*
 * Threads media containers: a post is a container (text, image, video, or a carousel of item
 * containers) that Threads fills by fetching our public media URLs; it is published once FINISHED.
 */

interface ContainerStatus {
  id?: string;
  status?: 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
  error_message?: string;
}

export async function waitUntilFinished(
  config: ThreadsConfig,
  id: string,
  token: string,
  what: string,
  signal: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + config.processingTimeoutMs;
  for (let wait = config.pollMinMs; ; wait = Math.min(config.pollMaxMs, wait * 2)) {
    const status = await threadsCall<ContainerStatus>(config.apiUrl, {
      method: 'GET',
      path: `/${encodeURIComponent(id)}`,
      params: { fields: 'status,error_message' },
      accessToken: token,
      what,
      signal,
    });
    if (status.status === 'FINISHED' || status.status === 'PUBLISHED') return;
    if (status.status === 'ERROR') {
      throw new PlatformError(
        'media_rejected',
        `Threads could not process ${what}: ${status.error_message || 'no reason given'}`,
      );
    }
    if (status.status === 'EXPIRED') {
      throw new PlatformError('platform_unavailable', `Threads let ${what} expire before it was published`);
    }
    if (Date.now() + wait > deadline) {
      throw new PlatformError(
        'timeout',
        `Threads was still processing ${what} after ${Math.round(config.processingTimeoutMs / 1000)} s`,
      );
    }
    await sleep(wait, signal);
  }
}

async function createContainer(
  config: ThreadsConfig,
  userId: string,
  token: string,
  params: Record<string, string | undefined>,
  what: string,
  signal: AbortSignal,
): Promise<string> {
  const created = await threadsCall<{ id?: string }>(config.apiUrl, {
    method: 'POST',
    path: `/${encodeURIComponent(userId)}/threads`,
    params,
    accessToken: token,
    what,
    signal,
  });
  if (!created.id) throw new PlatformError('platform_unavailable', `Threads answered ${what} without an id`);
  return created.id;
}

/** An earlier container's state, or undefined when Threads cannot say. */
export async function containerState(
  config: ThreadsConfig,
  id: string,
  token: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  try {
    const answer = await threadsCall<ContainerStatus>(config.apiUrl, {
      method: 'GET',
      path: `/${encodeURIComponent(id)}`,
      params: { fields: 'status' },
      accessToken: token,
      what: 'the earlier container',
      signal,
    });
    return answer.status;
  } catch {
    return undefined;
  }
}

// `alt_text` (up to 1000 characters) is documented for IMAGE and VIDEO containers, carousel items included.
const mediaParams = (file: MediaFile) => ({
  ...(file.kind === 'video'
    ? { media_type: 'VIDEO', video_url: file.url }
    : { media_type: 'IMAGE', image_url: file.url }),
  ...(file.altText ? { alt_text: file.altText } : {}),
});

/** The post's container (text, one medium, or a carousel of FINISHED items), not yet waited on. */
export async function buildPostContainer(
  config: ThreadsConfig,
  userId: string,
  token: string,
  post: PostContent,
  media: readonly MediaFile[],
  options: ThreadsOptions,
  replyTo: string | undefined,
  signal: AbortSignal,
): Promise<string> {
  const common = {
    text: post.message === '' ? undefined : post.message,
    reply_control: options.replyControl,
    // A thread part (or first comment) answers the part before it; otherwise the option's post, if any.
    reply_to_id: replyTo ?? options.replyToId,
    quote_post_id: options.quotePostId,
    topic_tag: options.topicTag,
  };
  const build = async (): Promise<string> => {
    if (media.length === 0) {
      return createContainer(config, userId, token, { media_type: 'TEXT', ...common }, 'the post', signal);
    }
    if (media.length === 1) {
      return createContainer(
        config,
        userId,
        token,
        { ...mediaParams(media[0]!), ...common },
        'the post',
        signal,
      );
    }
    const children: string[] = [];
    for (const [index, file] of media.entries()) {
      const what = `carousel item ${index + 1} ("${file.filename}")`;
      children.push(
        await createContainer(
          config,
          userId,
          token,
          { ...mediaParams(file), is_carousel_item: 'true' },
          what,
          signal,
        ),
      );
    }
    // Items must be FINISHED before the carousel container can reference them.
    await Promise.all(
      children.map((id, index) =>
        waitUntilFinished(
          config,
          id,
          token,
          `carousel item ${index + 1} ("${media[index]!.filename}")`,
          signal,
        ),
      ),
    );
    return createContainer(
      config,
      userId,
      token,
      { media_type: 'CAROUSEL', children: children.join(','), ...common },
      'the carousel',
      signal,
    );
  };
  return build();
}

/** What a staged container was built from: a publish of anything else builds its own. */
export function stageFingerprint(
  post: PostContent,
  media: readonly MediaFile[],
  options: ThreadsOptions,
  replyTo: string | undefined,
): string {
  return JSON.stringify([
    post.message,
    media.map((f) => [f.key, f.altText ?? null]),
    options,
    replyTo ?? null,
  ]);
}

/** The staged container id, when the handle was made from exactly this post. */
export function stagedContainer(staged: string | undefined, fingerprint: string): string | undefined {
  if (!staged) return undefined;
  try {
    const parsed = JSON.parse(staged) as { container?: unknown; of?: unknown };
    if (typeof parsed.container === 'string' && parsed.of === fingerprint) return parsed.container;
  } catch {
    // Not a handle of ours: publish as usual.
  }
  return undefined;
}
