import { PlatformError } from '../../errors.ts';
import { sleep } from '../../publish/retry.ts';
import { AttemptMemory } from '../attempt-memory.ts';
import type { OptionChoice } from '../manifest.ts';
import { RefreshingToken, RefreshLocks } from '../refreshing-token.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PlatformCallContext,
  PublishContext,
  Publisher,
  PublishResult,
} from '../types.ts';
import { tiktokCall } from './api.ts';
import type { TikTokConfig } from './config.ts';
import { tiktokFailReason } from './errors.ts';
import { privacyLevelLabels } from './limits.ts';
import { refreshTikTokTokens } from './oauth.ts';
import {
  type TikTokCredentials,
  type TikTokOptions,
  tiktokCredentialsSchema,
  tiktokOptionsSchema,
} from './options.ts';
import { type CreatorInfo, creatorInfo, tiktokProfile } from './profile.ts';
import { chunkPlan, uploadChunks } from './upload.ts';
import { validateTikTokPost } from './validate.ts';

interface StatusAnswer {
  status?: string;
  fail_reason?: string;
  /** Sic: TikTok's field name. Set once a public post is live (not for SELF_ONLY posts). */
  publicaly_available_post_id?: (string | number)[];
}

/** A publish TikTok accepted (init answered), remembered so a retry polls it instead of posting again. */
interface Started {
  publishId: string;
  kind: 'video' | 'photo';
  username?: string;
}

/**
 * TikTok's Content Posting API, direct post: `creator_info/query` first (the privacy levels and
 * interaction settings the creator allows now), then a video by FILE_UPLOAD (init, chunked PUTs)
 * or PULL_FROM_URL, or photos by PULL_FROM_URL, then `status/fetch` until PUBLISH_COMPLETE.
 */
export function createTikTokPublisher(config: TikTokConfig): Publisher<TikTokOptions> {
  const locks = new RefreshLocks();
  const started = new AttemptMemory<Started>(24 * 60 * 60_000);

  function tokenFor(
    account: PlatformAccount,
    context: Partial<Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'logger'>> | undefined,
  ): RefreshingToken<TikTokCredentials> {
    const parsed = tiktokCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success)
      throw new PlatformError(
        'credentials_invalid',
        'TikTok credentials need an accessToken and a refreshToken',
      );
    return new RefreshingToken(parsed.data, {
      lockKey: account.platformAccountId,
      platformName: 'TikTok',
      locks,
      refresh: (refreshToken, signal) => refreshTikTokTokens(config, refreshToken, signal),
      stored: account.currentCredentials,
      signal: context?.signal,
      onRefreshed: context?.onCredentialsRefreshed,
      logger: context?.logger,
    });
  }

  async function waitForPublish(
    token: RefreshingToken<TikTokCredentials>,
    publish: Started,
    signal: AbortSignal,
  ): Promise<PublishResult> {
    const deadline = Date.now() + config.processingTimeoutMs;
    let wait = config.pollMinMs;
    for (;;) {
      const answer = await token.use((accessToken) =>
        tiktokCall<StatusAnswer>(config.apiUrl, {
          method: 'POST',
          path: '/v2/post/publish/status/fetch/',
          body: { publish_id: publish.publishId },
          accessToken,
          what: 'the publish status',
          signal,
        }),
      );
      if (answer.status === 'FAILED') throw tiktokFailReason(answer.fail_reason);
      if (answer.status === 'PUBLISH_COMPLETE' || answer.status === 'SEND_TO_USER_INBOX') {
        const postId = answer.publicaly_available_post_id?.[0];
        if (postId === undefined) {
          // A private (SELF_ONLY) post has no public id: the publish id is what identifies it.
          return { platformPostId: publish.publishId };
        }
        const id = String(postId);
        return {
          platformPostId: id,
          ...(publish.username
            ? { url: `https://www.tiktok.com/@${publish.username}/${publish.kind}/${id}` }
            : {}),
        };
      }
      if (Date.now() + wait > deadline) {
        throw new PlatformError(
          'timeout',
          `TikTok was still processing the post after ${Math.round(config.processingTimeoutMs / 1000)} s (${answer.status ?? 'no status'})`,
        );
      }
      await sleep(wait, signal);
      wait = Math.min(wait * 2, config.pollMaxMs);
    }
  }

  async function start(
    token: RefreshingToken<TikTokCredentials>,
    creator: CreatorInfo,
    message: string,
    media: Parameters<Publisher<TikTokOptions>['publish']>[2],
    options: TikTokOptions,
    signal: AbortSignal,
  ): Promise<Started> {
    const privacyLevel = options.privacyLevel;
    const offered = creator.privacy_level_options ?? [];
    if (!privacyLevel || !offered.includes(privacyLevel)) {
      throw new PlatformError(
        'content_rejected',
        `TikTok needs a privacy level this creator allows (${offered.join(', ') || 'none offered'}); got ${privacyLevel ?? 'none'}`,
        { retryable: false },
      );
    }
    // Settings the creator turned off in the app stay off, whatever the post asks for.
    const disableComment = Boolean(options.disableComment || creator.comment_disabled);
    const username = creator.creator_username;
    const video = media.find((file) => file.kind === 'video');
    if (!video) {
      const { publish_id } = await token.use((accessToken) =>
        tiktokCall<{ publish_id?: string }>(config.apiUrl, {
          method: 'POST',
          path: '/v2/post/publish/content/init/',
          body: {
            post_info: {
              ...(options.title ? { title: options.title } : {}),
              description: message,
              privacy_level: privacyLevel,
              disable_comment: disableComment,
            },
            source_info: {
              source: 'PULL_FROM_URL',
              photo_cover_index: 0,
              photo_images: media.map((file) => file.url),
            },
            post_mode: 'DIRECT_POST',
            media_type: 'PHOTO',
          },
          accessToken,
          what: 'the photo post',
          signal,
        }),
      );
      return startedOf(publish_id, 'photo', username);
    }
    const postInfo = {
      title: message,
      privacy_level: privacyLevel,
      disable_comment: disableComment,
      disable_duet: Boolean(options.disableDuet || creator.duet_disabled),
      disable_stitch: Boolean(options.disableStitch || creator.stitch_disabled),
    };
    if (config.videoSource === 'PULL_FROM_URL') {
      const { publish_id } = await token.use((accessToken) =>
        tiktokCall<{ publish_id?: string }>(config.apiUrl, {
          method: 'POST',
          path: '/v2/post/publish/video/init/',
          body: { post_info: postInfo, source_info: { source: 'PULL_FROM_URL', video_url: video.url } },
          accessToken,
          what: 'the video post',
          signal,
        }),
      );
      return startedOf(publish_id, 'video', username);
    }
    const plan = chunkPlan(video.size, config.chunkBytes);
    const init = await token.use((accessToken) =>
      tiktokCall<{ publish_id?: string; upload_url?: string }>(config.apiUrl, {
        method: 'POST',
        path: '/v2/post/publish/video/init/',
        body: {
          post_info: postInfo,
          source_info: {
            source: 'FILE_UPLOAD',
            video_size: video.size,
            chunk_size: plan.chunkSize,
            total_chunk_count: plan.totalChunkCount,
          },
        },
        accessToken,
        what: 'the video post',
        signal,
      }),
    );
    if (!init.upload_url)
      throw new PlatformError('platform_unavailable', 'TikTok answered the video init without an upload_url');
    await uploadChunks(init.upload_url, video, plan, signal);
    return startedOf(init.publish_id, 'video', username);
  }

  return {
    id: 'tiktok',
    displayName: 'TikTok',
    optionsSchema: tiktokOptionsSchema,
    credentialsSchema: tiktokCredentialsSchema,
    concurrency: 4,
    // Uploads of one creator go one at a time; TikTok also limits init calls per user token.
    credentialConcurrency: 1,
    concurrencyKey: (account) => `tiktok:${account.platformAccountId}`,
    // Documented: 6 init requests a minute per user access token. Off unless configured
    // (PUBLISH_RATE_TIKTOK_CREATOR): TikTok's 429 is the better judge by default.
    rateLimits: (account) => [
      {
        scope: 'creator',
        key: `tiktok:${account.platformAccountId}`,
        limit: 6,
        windowMs: 60_000,
        enabled: false,
      },
    ],

    async validate(post, account, media, options) {
      const outcome = validateTikTokPost(post, media, options, config, account.id);
      if (!tiktokCredentialsSchema.safeParse(account.credentials).success) {
        outcome.errors.push({
          code: 'credentials_invalid',
          message: 'TikTok credentials need an accessToken and a refreshToken',
        });
      }
      return outcome;
    },

    async optionChoices(account, field, _values, context: PlatformCallContext): Promise<OptionChoice[]> {
      if (field !== 'privacyLevel') return [];
      const token = tokenFor(account, context);
      const creator = await token.use((accessToken) =>
        creatorInfo(config.apiUrl, accessToken, context.signal),
      );
      return (creator.privacy_level_options ?? []).map((value) => ({
        value,
        label: privacyLevelLabels[value] ?? value,
      }));
    },

    async publish(post, account, media, options, context): Promise<PublishResult> {
      const { signal } = context;
      const token = tokenFor(account, context);
      const earlier = started.get(context.idempotencyKey);
      if (earlier) {
        // An earlier attempt's post was accepted: follow it rather than posting a second one.
        try {
          const result = await waitForPublish(token, earlier, signal);
          started.delete(context.idempotencyKey);
          return result;
        } catch (error) {
          if (
            !(error instanceof PlatformError) ||
            error.code !== 'platform_unavailable' ||
            error.status !== undefined
          )
            throw error;
          // TikTok failed that one for an internal reason: it was not posted, so post again.
          started.delete(context.idempotencyKey);
        }
      }
      const creator = await token.use((accessToken) => creatorInfo(config.apiUrl, accessToken, signal));
      const accepted = await start(token, creator, post.message, media, options, signal);
      started.set(context.idempotencyKey, accepted);
      const result = await waitForPublish(token, accepted, signal);
      started.delete(context.idempotencyKey);
      return result;
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const token = tokenFor(account, context);
      // The keeper renews a token close to expiry through here (TikTok's last 24 hours).
      return token.use((accessToken) => tiktokProfile(config.apiUrl, accessToken, context?.signal));
    },
  };
}

function startedOf(
  publishId: string | undefined,
  kind: Started['kind'],
  username: string | undefined,
): Started {
  if (!publishId)
    throw new PlatformError('platform_unavailable', 'TikTok answered the post without a publish_id');
  return { publishId, kind, ...(username ? { username } : {}) };
}
