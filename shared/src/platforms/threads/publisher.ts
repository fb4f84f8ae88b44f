import { PlatformError } from '../../errors.ts';
import { accountIdIssue, numericId } from '../account-id.ts';
import type { AccountProfile, Publisher, PublishResult, StagedMedia } from '../types.ts';
import { threadsCall } from './api.ts';
import type { ThreadsConfig } from './config.ts';
import {
  buildPostContainer,
  containerState,
  stagedContainer,
  stageFingerprint,
  waitUntilFinished,
} from './containers.ts';
import { threadsAccountMetrics, threadsPostMetrics } from './metrics.ts';
import { threadsProfile } from './oauth.ts';
import { type ThreadsOptions, threadsCredentialsSchema, threadsOptionsSchema } from './options.ts';
import { checkQuota, findRecentPost } from './profile-lookups.ts';
import { threadsAccessToken } from './token.ts';
import { validateThreadsPost } from './validate.ts';

/**
 * Publishes to Threads through its Graph API: checks the profile's publishing quota, creates a
 * media container (text, image, video, or a carousel of item containers) that Threads fills by
 * fetching our public media URLs, waits until it is FINISHED, then publishes it.
 */
export function createThreadsPublisher(config: ThreadsConfig): Publisher<ThreadsOptions> {
  /** Containers created per idempotency key, so a retry publishes (or finds) the same one instead of a new post. */
  const containers = new Map<string, { id: string; at: number }>();

  function rememberContainer(key: string, id: string): void {
    const now = Date.now();
    // Threads lets unpublished containers expire after 24 hours.
    for (const [k, entry] of containers) if (now - entry.at > 24 * 3_600_000) containers.delete(k);
    if (containers.size < 2_000) containers.set(key, { id, at: now });
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
      const id = accountIdIssue(account, numericId, 'Threads', 'the numeric Threads user id');
      if (id) outcome.errors.push(id);
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
      const token = await threadsAccessToken(config, account, context);
      const replyTo = context.replyTo?.parent.platformPostId;
      const container = await buildPostContainer(
        config,
        account.platformAccountId,
        token,
        post,
        media,
        options,
        replyTo,
        context.signal,
      );
      await waitUntilFinished(config, container, token, 'the post', context.signal);
      const handle = { container, of: stageFingerprint(post, media, options, replyTo) };
      return { handle: JSON.stringify(handle), expiresAt: new Date(Date.now() + 23 * 3_600_000) };
    },

    async publish(post, account, media, options, context): Promise<PublishResult> {
      const { signal } = context;
      const userId = account.platformAccountId;
      const token = await threadsAccessToken(config, account, context);

      const replyTo = context.replyTo?.parent.platformPostId;
      const edge = replyTo ? 'replies' : 'threads';
      const buildContainer = () =>
        buildPostContainer(config, userId, token, post, media, options, replyTo, signal);
      if (!containers.get(context.idempotencyKey) && context.resumed) {
        // An earlier process may have published it: its post would be among the latest ones.
        const found = await findRecentPost(
          config,
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
      const state = previous ? await containerState(config, previous.id, token, signal) : undefined;
      if (previous && state === 'PUBLISHED') {
        // An earlier attempt published it and lost the answer: report that post, never a second one.
        const found = await findRecentPost(config, userId, token, post.message, previous.at, signal, edge);
        if (found) {
          containers.delete(context.idempotencyKey);
          return found;
        }
      }
      await checkQuota(config, userId, token, signal);
      let containerId: string;
      if (previous && (state === 'FINISHED' || state === 'IN_PROGRESS')) {
        containerId = previous.id;
      } else {
        containerId = await buildContainer();
        rememberContainer(context.idempotencyKey, containerId);
      }
      await waitUntilFinished(config, containerId, token, 'the post', signal);
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
      const token = await threadsAccessToken(config, account, context);
      return threadsPostMetrics(config.apiUrl, token, targets, context.signal);
    },

    async accountMetrics(account, context) {
      const token = await threadsAccessToken(config, account, context);
      return threadsAccountMetrics(config.apiUrl, token, account.platformAccountId, context.signal);
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const token = await threadsAccessToken(config, account, context);
      return threadsProfile(config.apiUrl, token, context?.signal);
    },
  };
}
