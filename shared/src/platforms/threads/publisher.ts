import { PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { sleep } from '../../publish/retry.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PostContent,
  PublishContext,
  Publisher,
  PublishResult,
  StagedMedia,
} from '../types.ts';
import { threadsCall } from './api.ts';
import type { ThreadsConfig } from './config.ts';
import { defaultDailyQuota } from './limits.ts';
import { threadsAccountMetrics, threadsPostMetrics } from './metrics.ts';
import { refreshThreadsToken, threadsProfile } from './oauth.ts';
import {
  type ThreadsCredentials,
  type ThreadsOptions,
  threadsCredentialsSchema,
  threadsOptionsSchema,
} from './options.ts';
import { validateThreadsPost } from './validate.ts';

interface ContainerStatus {
  id?: string;
  status?: 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
  error_message?: string;
}

interface QuotaAnswer {
  data?: { quota_usage?: number; config?: { quota_total?: number; quota_duration?: number } }[];
}

/**
 * Publishes to Threads through its Graph API: checks the profile's publishing quota, creates a
 * media container (text, image, video, or a carousel of item containers) that Threads fills by
 * fetching our public media URLs, waits until it is FINISHED, then publishes it.
 */
export function createThreadsPublisher(config: ThreadsConfig): Publisher<ThreadsOptions> {
  /** The token to use: refreshed (th_refresh_token) when its 60 days are nearly over. */
  async function accessTokenFor(
    account: PlatformAccount,
    context: Partial<Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'logger'>> | undefined,
  ): Promise<string> {
    const credentials = credentialsOf(account);
    if (credentials.expiresAt === undefined) return credentials.accessToken;
    const expiresAt = expiryOf(credentials.expiresAt);
    if (expiresAt - Date.now() > config.refreshBeforeMs) return credentials.accessToken;
    try {
      const fresh = await refreshThreadsToken(config.apiUrl, credentials.accessToken, context?.signal);
      const next: ThreadsCredentials = { ...credentials, ...fresh };
      try {
        await context?.onCredentialsRefreshed?.({ ...next });
      } catch (error) {
        context?.logger?.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'storing refreshed Threads credentials failed',
        );
      }
      return fresh.accessToken;
    } catch (error) {
      // A token that still works is used as is; the next publish tries the refresh again.
      if (expiresAt > Date.now() && !(error instanceof PlatformError && error.code === 'needs_reconnect')) {
        context?.logger?.warn(
          { code: error instanceof PlatformError ? error.code : 'internal' },
          'refreshing the Threads token failed; using the current one',
        );
        return credentials.accessToken;
      }
      throw error;
    }
  }

  async function checkQuota(userId: string, token: string, signal: AbortSignal): Promise<void> {
    const answer = await threadsCall<QuotaAnswer>(config.apiUrl, {
      method: 'GET',
      path: `/${encodeURIComponent(userId)}/threads_publishing_limit`,
      params: { fields: 'quota_usage,config' },
      accessToken: token,
      what: 'the publishing limit check',
      signal,
    });
    const entry = answer.data?.[0];
    const used = entry?.quota_usage;
    const total = entry?.config?.quota_total ?? defaultDailyQuota;
    if (typeof used === 'number' && used >= total) {
      const hours = Math.round((entry?.config?.quota_duration ?? 86_400) / 3600);
      throw new PlatformError(
        'rate_limited',
        `This Threads profile has used its publishing limit: ${used} of ${total} posts in the last ${hours} hours. Posting frees up as earlier posts age past ${hours} hours; try again later.`,
        { retryable: false },
      );
    }
  }

  async function waitUntilFinished(
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
    if (!created.id)
      throw new PlatformError('platform_unavailable', `Threads answered ${what} without an id`);
    return created.id;
  }

  /** Containers created per idempotency key, so a retry publishes (or finds) the same one instead of a new post. */
  const containers = new Map<string, { id: string; at: number }>();

  function rememberContainer(key: string, id: string): void {
    const now = Date.now();
    // Threads lets unpublished containers expire after 24 hours.
    for (const [k, entry] of containers) if (now - entry.at > 24 * 3_600_000) containers.delete(k);
    if (containers.size < 2_000) containers.set(key, { id, at: now });
  }

  async function containerState(id: string, token: string, signal: AbortSignal): Promise<string | undefined> {
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

  /**
   * The profile's post with this text published since `since`, from its latest posts; a reply
   * (a thread part, a first comment) is listed under `/{user}/replies`, not `/{user}/threads`.
   */
  async function findRecentPost(
    userId: string,
    token: string,
    text: string,
    since: number,
    signal: AbortSignal,
    edge: 'threads' | 'replies',
  ): Promise<PublishResult | undefined> {
    try {
      const answer = await threadsCall<{
        data?: { id?: string; text?: string; permalink?: string; timestamp?: string }[];
      }>(config.apiUrl, {
        method: 'GET',
        path: `/${encodeURIComponent(userId)}/${edge}`,
        params: { fields: 'id,text,permalink,timestamp', limit: '10' },
        accessToken: token,
        what: 'the recent posts lookup',
        signal,
      });
      const match = answer.data?.find(
        (candidate) =>
          candidate.id &&
          (candidate.text ?? '') === text &&
          (!candidate.timestamp || Date.parse(candidate.timestamp) >= since - 60_000),
      );
      if (!match?.id) return undefined;
      return { platformPostId: match.id, ...(match.permalink ? { url: match.permalink } : {}) };
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
  async function buildPostContainer(
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
        return createContainer(userId, token, { media_type: 'TEXT', ...common }, 'the post', signal);
      }
      if (media.length === 1) {
        return createContainer(userId, token, { ...mediaParams(media[0]!), ...common }, 'the post', signal);
      }
      const children: string[] = [];
      for (const [index, file] of media.entries()) {
        const what = `carousel item ${index + 1} ("${file.filename}")`;
        children.push(
          await createContainer(
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
          waitUntilFinished(id, token, `carousel item ${index + 1} ("${media[index]!.filename}")`, signal),
        ),
      );
      return createContainer(
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
  function stageFingerprint(
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

  return {
    id: 'threads',
    displayName: 'Threads',
    optionsSchema: threadsOptionsSchema,
    credentialsSchema: threadsCredentialsSchema,
    concurrency: 4,
    // A resumed publish first looks for the post among the profile's latest ones.
    dedupe: 'lookup',
    credentialConcurrency: 2,
    concurrencyKey: (account) => `threads:${account.platformAccountId}`,

    async validate(post, account, media, options) {
      const outcome = validateThreadsPost(post, media, options);
      if (!threadsCredentialsSchema.safeParse(account.credentials).success) {
        outcome.errors.push({
          code: 'credentials_invalid',
          message: 'Threads credentials need an accessToken',
        });
      }
      return outcome;
    },

    // A container Threads has FINISHED stays publishable for 24 hours: stage builds it (the video
    // fetched and processed) ahead of the due time; publish then only calls threads_publish.
    async stage(post, account, media, options, context): Promise<StagedMedia> {
      const token = await accessTokenFor(account, context);
      const replyTo = context.replyTo?.parent.platformPostId;
      const container = await buildPostContainer(
        account.platformAccountId,
        token,
        post,
        media,
        options,
        replyTo,
        context.signal,
      );
      await waitUntilFinished(container, token, 'the post', context.signal);
      const handle = { container, of: stageFingerprint(post, media, options, replyTo) };
      return { handle: JSON.stringify(handle), expiresAt: new Date(Date.now() + 23 * 3_600_000) };
    },

    async publish(post, account, media, options, context): Promise<PublishResult> {
      const { signal } = context;
      const userId = account.platformAccountId;
      const token = await accessTokenFor(account, context);

      const replyTo = context.replyTo?.parent.platformPostId;
      const edge = replyTo ? 'replies' : 'threads';
      const buildContainer = () => buildPostContainer(userId, token, post, media, options, replyTo, signal);
      if (!containers.get(context.idempotencyKey) && context.resumed) {
        // An earlier process may have published it: its post would be among the latest ones.
        const found = await findRecentPost(
          userId,
          token,
          post.message,
          context.resumed.since.getTime(),
          signal,
          edge,
        );
        if (found) return found;
      }
      const staged = stagedContainer(context.staged, stageFingerprint(post, media, options, replyTo));
      if (staged && !containers.get(context.idempotencyKey))
        rememberContainer(context.idempotencyKey, staged);
      const previous = containers.get(context.idempotencyKey);
      const state = previous ? await containerState(previous.id, token, signal) : undefined;
      if (previous && state === 'PUBLISHED') {
        // An earlier attempt published it and lost the answer: report that post, never a second one.
        const found = await findRecentPost(userId, token, post.message, previous.at, signal, edge);
        if (found) {
          containers.delete(context.idempotencyKey);
          return found;
        }
      }
      await checkQuota(userId, token, signal);
      let containerId: string;
      if (previous && (state === 'FINISHED' || state === 'IN_PROGRESS')) {
        containerId = previous.id;
      } else {
        containerId = await buildContainer();
        rememberContainer(context.idempotencyKey, containerId);
      }
      await waitUntilFinished(containerId, token, 'the post', signal);
      const published = await threadsCall<{ id?: string }>(config.apiUrl, {
        method: 'POST',
        path: `/${encodeURIComponent(userId)}/threads_publish`,
        params: { creation_id: containerId },
        accessToken: token,
        what: 'the post',
        signal,
      });
      if (!published.id)
        throw new PlatformError('platform_unavailable', 'Threads answered the publish without an id');
      containers.delete(context.idempotencyKey);
      const url = await threadsCall<{ permalink?: string }>(config.apiUrl, {
        method: 'GET',
        path: `/${encodeURIComponent(published.id)}`,
        params: { fields: 'permalink' },
        accessToken: token,
        what: 'the permalink',
        signal,
      }).then(
        (answer) => answer.permalink,
        // The post is live; a missing link is no reason to report it failed (and post it again).
        () => undefined,
      );
      return { platformPostId: published.id, ...(url ? { url } : {}) };
    },

    async metrics(targets, account, context) {
      const token = await accessTokenFor(account, context);
      return threadsPostMetrics(config.apiUrl, token, targets, context.signal);
    },

    async accountMetrics(account, context) {
      const token = await accessTokenFor(account, context);
      return threadsAccountMetrics(config.apiUrl, token, account.platformAccountId, context.signal);
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const token = await accessTokenFor(account, context);
      return threadsProfile(config.apiUrl, token, context?.signal);
    },
  };
}

/** The staged container id, when the handle was made from exactly this post. */
function stagedContainer(staged: string | undefined, fingerprint: string): string | undefined {
  if (!staged) return undefined;
  try {
    const parsed = JSON.parse(staged) as { container?: unknown; of?: unknown };
    if (typeof parsed.container === 'string' && parsed.of === fingerprint) return parsed.container;
  } catch {
    // Not a handle of ours: publish as usual.
  }
  return undefined;
}

function credentialsOf(account: PlatformAccount): ThreadsCredentials {
  const parsed = threadsCredentialsSchema.safeParse(account.credentials);
  if (!parsed.success)
    throw new PlatformError('credentials_invalid', 'Threads credentials need an accessToken');
  return parsed.data;
}

function expiryOf(expiresAt: string | number): number {
  return typeof expiresAt === 'number' ? expiresAt : Date.parse(expiresAt);
}
