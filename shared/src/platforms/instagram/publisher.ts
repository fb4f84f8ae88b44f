import { PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { sleep } from '../../publish/retry.ts';
import { AttemptMemory } from '../attempt-memory.ts';
import { GraphClient, type GraphParams, postGraphComment } from '../facebook/graph.ts';
import type { AccountProfile, PlatformAccount, PublishContext, Publisher, PublishResult } from '../types.ts';
import type { InstagramConfig } from './config.ts';
import { instagramAccountMetrics, instagramPostMetrics } from './metrics.ts';
import {
  type InstagramCredentials,
  type InstagramOptions,
  instagramCredentialsSchema,
  instagramOptionsSchema,
} from './options.ts';
import { instagramStagedMedia, stagedInstagramContainer } from './stage.ts';
import { instagramAccessToken } from './token.ts';
import { validateInstagramPost } from './validate.ts';

interface PublishingLimit {
  data?: { quota_usage?: number; config?: { quota_total?: number; quota_duration?: number } }[];
}
interface ContainerStatus {
  status_code?: 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';
  status?: string;
}
interface Profile {
  id?: string;
  user_id?: string | number;
  username?: string;
  name?: string;
  profile_picture_url?: string;
}

type Context = Partial<Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'logger'>>;

/**
 * Publishes to an Instagram professional account with the Content Publishing API: check the
 * 24-hour quota, create containers from our public media URLs (image, reel, or carousel of
 * items), wait until each is FINISHED, then `media_publish`.
 */
export function createInstagramPublisher(config: InstagramConfig): Publisher<InstagramOptions> {
  /** The container an attempt was about to publish, so a retry reuses it or finds the post it became. */
  const containers = new AttemptMemory<string>(24 * 60 * 60_000);

  async function graph(account: PlatformAccount, context: Context): Promise<GraphClient> {
    const credentials = credentialsOf(account);
    const token = await instagramAccessToken(config, credentials, {
      signal: context.signal,
      onRefreshed: context.onCredentialsRefreshed,
      logger: context.logger,
    });
    const base = credentials.loginType === 'facebook' ? config.facebookGraphBase : config.graphBase;
    return new GraphClient({ base, token, signal: context.signal, platform: 'Instagram' });
  }

  async function checkQuota(client: GraphClient, user: string): Promise<void> {
    const limit = await client.get<PublishingLimit>(
      `/${user}/content_publishing_limit`,
      { fields: 'config,quota_usage' },
      'the publishing limit',
    );
    const entry = limit.data?.[0];
    const used = entry?.quota_usage;
    const total = entry?.config?.quota_total;
    if (typeof used === 'number' && typeof total === 'number' && used >= total) {
      const hours = Math.round((entry?.config?.quota_duration ?? 86_400) / 3600);
      throw new PlatformError(
        'rate_limited',
        `This Instagram account has published its ${total} API posts allowed in ${hours} hours; posting works again when the oldest of them is ${hours} hours old`,
        { retryable: false },
      );
    }
  }

  async function waitFinished(client: GraphClient, container: string, signal: AbortSignal): Promise<void> {
    const deadline = Date.now() + config.processingTimeoutMs;
    for (;;) {
      const state = await client.get<ContainerStatus>(
        `/${container}`,
        { fields: 'status_code,status' },
        'the media status',
      );
      switch (state.status_code) {
        case 'FINISHED':
        case 'PUBLISHED':
          return;
        case 'ERROR':
          throw new PlatformError(
            'media_rejected',
            `Instagram could not process the media${state.status ? `: ${state.status}` : ''}`,
          );
        case 'EXPIRED':
          throw new PlatformError(
            'platform_unavailable',
            'The Instagram media container expired before publishing',
          );
      }
      if (Date.now() + config.pollIntervalMs > deadline) {
        throw new PlatformError(
          'timeout',
          `Instagram was still processing the media after ${config.processingTimeoutMs} ms`,
          { retryable: false },
        );
      }
      await sleep(config.pollIntervalMs, signal);
    }
  }

  async function createContainer(client: GraphClient, user: string, params: GraphParams): Promise<string> {
    const created = await client.post<{ id?: string }>(`/${user}/media`, params, 'the media container');
    if (!created.id) throw new PlatformError('internal', 'Instagram created no media container');
    return created.id;
  }

  async function createPostContainer(
    client: GraphClient,
    user: string,
    media: MediaFile[],
    message: string,
    options: InstagramOptions,
    signal: AbortSignal,
  ): Promise<string> {
    const caption = message || undefined;
    if (media.length === 1) {
      const file = media[0]!;
      return createContainer(
        client,
        user,
        file.kind === 'video'
          ? {
              media_type: 'REELS',
              video_url: file.url,
              caption,
              share_to_feed: options.shareToFeed ?? true,
              thumb_offset: options.thumbOffset,
            }
          : { image_url: file.url, caption, alt_text: file.altText },
      );
    }
    const children: string[] = [];
    for (const file of media) {
      const child = await createContainer(client, user, itemParams(file));
      await waitFinished(client, child, signal);
      children.push(child);
    }
    return createContainer(client, user, { media_type: 'CAROUSEL', children: children.join(','), caption });
  }

  /**
   * The container of an earlier attempt: already PUBLISHED (its answer was lost: the post is the
   * account's newest media), FINISHED (publish it rather than upload again), or gone.
   */
  async function earlierAttempt(
    client: GraphClient,
    user: string,
    container: string | undefined,
  ): Promise<{ published: { id: string; permalink?: string } } | { finished: string } | undefined> {
    if (!container) return undefined;
    let state: ContainerStatus;
    try {
      state = await client.get<ContainerStatus>(
        `/${container}`,
        { fields: 'status_code' },
        'the media status',
      );
    } catch {
      return undefined;
    }
    if (state.status_code === 'FINISHED' || state.status_code === 'IN_PROGRESS')
      return { finished: container };
    if (state.status_code !== 'PUBLISHED') return undefined;
    const recent = await client.get<{ data?: { id?: string; permalink?: string }[] }>(
      `/${user}/media`,
      { fields: 'id,permalink', limit: 1 },
      'the media list',
    );
    const newest = recent.data?.[0];
    return newest?.id
      ? { published: { id: newest.id, ...(newest.permalink ? { permalink: newest.permalink } : {}) } }
      : undefined;
  }

  /** `alt_text` (up to 1000 characters) is documented for images, single or carousel items; reels have none. */
  function itemParams(file: MediaFile): GraphParams {
    return file.kind === 'video'
      ? { media_type: 'VIDEO', video_url: file.url, is_carousel_item: true }
      : { image_url: file.url, is_carousel_item: true, alt_text: file.altText };
  }

  return {
    id: 'instagram',
    displayName: 'Instagram',
    optionsSchema: instagramOptionsSchema,
    credentialsSchema: instagramCredentialsSchema,
    concurrency: 10,

    async validate(post, account, media, options) {
      return validateInstagramPost(post, account, media, options);
    },

    // The container built and FINISHED ahead (stage.ts); at the due time only a check and media_publish.
    async stage(post, account, media, options, context) {
      const client = await graph(account, context);
      const user = userOf(account);
      const container = await createPostContainer(client, user, media, post.message, options, context.signal);
      await waitFinished(client, container, context.signal);
      return instagramStagedMedia(container, post, media, options);
    },

    async publish(post, account, media, options, context): Promise<PublishResult> {
      if (media.length === 0)
        throw new PlatformError('media_rejected', 'Instagram posts need an image or a video');
      const user = userOf(account);
      const client = await graph(account, context);
      const earlier = await earlierAttempt(
        client,
        user,
        containers.get(context.idempotencyKey) ??
          stagedInstagramContainer(context.staged, post, media, options),
      );
      if (earlier && 'published' in earlier) {
        containers.delete(context.idempotencyKey);
        context.logger.info(
          { id: earlier.published.id },
          'Instagram post of an earlier attempt found; not posting it again',
        );
        return {
          platformPostId: earlier.published.id,
          ...(earlier.published.permalink ? { url: earlier.published.permalink } : {}),
        };
      }
      await checkQuota(client, user);
      const reusable = earlier && 'finished' in earlier ? earlier.finished : undefined;
      const container =
        reusable ?? (await createPostContainer(client, user, media, post.message, options, context.signal));
      containers.set(context.idempotencyKey, container);
      await waitFinished(client, container, context.signal);
      const published = await client.post<{ id?: string }>(
        `/${user}/media_publish`,
        { creation_id: container },
        'the post',
      );
      containers.delete(context.idempotencyKey);
      if (!published.id)
        throw new PlatformError('internal', 'Instagram published the post but returned no id');
      let url: string | undefined;
      try {
        url = (
          await client.get<{ permalink?: string }>(
            `/${published.id}`,
            { fields: 'permalink' },
            'the permalink',
          )
        ).permalink;
      } catch (error) {
        // The post is live: a missing link must not fail (and so repeat) it.
        context.logger.warn(
          { code: error instanceof PlatformError ? error.code : 'internal' },
          'Instagram permalink lookup failed',
        );
      }
      return { platformPostId: published.id, ...(url ? { url } : {}) };
    },

    // `POST /{ig-media-id}/comments?message=…` (instagram_business_manage_comments with Instagram
    // Login, instagram_manage_comments with a Page). A comment has no permalink: the post's link is kept.
    async comment(parent, text, account, _options, context): Promise<PublishResult> {
      const client = await graph(account, context);
      const id = await postGraphComment(client, parent.platformPostId, text);
      return { platformPostId: id, ...(parent.url ? { url: parent.url } : {}) };
    },

    async metrics(targets, account, context) {
      return instagramPostMetrics(await graph(account, context), targets);
    },

    async accountMetrics(account, context) {
      return instagramAccountMetrics(await graph(account, context), userOf(account));
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const user = userOf(account);
      const client = await graph(account, context ?? {});
      const viaPage = credentialsOf(account).loginType === 'facebook';
      // With Instagram Login `/me` is the token's own account, so a token of another account is caught.
      const profile = await client.get<Profile>(
        viaPage ? `/${user}` : '/me',
        {
          fields: viaPage
            ? 'id,username,name,profile_picture_url'
            : 'user_id,username,name,profile_picture_url',
        },
        'the account lookup',
      );
      const id = String(viaPage ? profile.id : (profile.user_id ?? profile.id));
      if (id !== user) {
        throw new PlatformError(
          'target_unreachable',
          `This Instagram token belongs to account ${id}, not ${user}`,
        );
      }
      return {
        name: profile.name ?? profile.username ?? user,
        ...(profile.username ? { username: profile.username } : {}),
        ...(profile.profile_picture_url ? { avatarUrl: profile.profile_picture_url } : {}),
        platformAccountId: user,
      };
    },
  };
}

function userOf(account: PlatformAccount): string {
  if (!/^\d+$/.test(account.platformAccountId)) {
    throw new PlatformError(
      'target_unreachable',
      'An Instagram platformAccountId is the numeric professional account id',
    );
  }
  return account.platformAccountId;
}

function credentialsOf(account: PlatformAccount): InstagramCredentials {
  const parsed = instagramCredentialsSchema.safeParse(account.credentials);
  if (!parsed.success)
    throw new PlatformError('credentials_invalid', 'Instagram credentials need an accessToken');
  return parsed.data;
}
