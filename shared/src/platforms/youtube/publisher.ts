import { PlatformError } from '../../errors.ts';
import { readJson } from '../../http/fetch.ts';
import { GoogleAccessToken } from '../google-oauth.ts';
import type { AccountProfile, PlatformAccount, PublishContext, Publisher, PublishResult } from '../types.ts';
import { videoCategoryChoices } from './categories.ts';
import type { YouTubeConfig } from './config.ts';
import { failure, googleFetch } from './google-fetch.ts';
import { youTubeManifest } from './manifest.ts';
import { videoMetadata } from './metadata.ts';
import { youTubeAccountMetrics, youTubeMetricsBatchSize, youTubePostMetrics } from './metrics.ts';
import {
  type YouTubeCredentials,
  type YouTubeOptions,
  youTubeCredentialsSchema,
  youTubeOptionsSchema,
} from './options.ts';
import { youTubeStaging } from './stage.ts';
import { setThumbnail } from './thumbnail.ts';
import { uploadVideo } from './upload.ts';
import { validateYouTubePost } from './validate.ts';

interface ChannelList {
  items?: {
    id: string;
    snippet?: { title?: string; customUrl?: string; thumbnails?: Record<string, { url?: string }> };
  }[];
}

/** Upload sessions of attempts that failed part-way, so a retry of the same publish resumes instead of re-uploading. */
interface OpenSession {
  url: string;
  openedAt: number;
}
const sessionLifetimeMs = 24 * 60 * 60 * 1000;
const maxOpenSessions = 500;

export function createYouTubePublisher(config: YouTubeConfig): Publisher<YouTubeOptions> {
  const openSessions = new Map<string, OpenSession>();
  const staging = youTubeStaging(config);

  function rememberSession(key: string, url: string | undefined): void {
    if (!url) {
      openSessions.delete(key);
      return;
    }
    const now = Date.now();
    for (const [k, session] of openSessions) {
      if (now - session.openedAt > sessionLifetimeMs || openSessions.size >= maxOpenSessions)
        openSessions.delete(k);
    }
    openSessions.set(key, { url, openedAt: now });
  }

  function accessToken(
    account: PlatformAccount,
    context:
      | (Pick<PublishContext, 'signal' | 'onCredentialsRefreshed'> & { logger?: PublishContext['logger'] })
      | undefined,
  ): GoogleAccessToken {
    return new GoogleAccessToken({
      tokenUrl: config.tokenUrl,
      credentials: credentialsOf(account),
      signal: context?.signal,
      onRefreshed: context?.onCredentialsRefreshed,
      logger: context?.logger,
    });
  }

  return {
    id: youTubeManifest.id,
    displayName: youTubeManifest.name,
    optionsSchema: youTubeOptionsSchema,
    credentialsSchema: youTubeCredentialsSchema,
    // Uploads are long and heavy; the API quota (about 6 uploads a day by default) is the real limit.
    concurrency: 2,

    validate(post, account, media, options, context) {
      return validateYouTubePost(post, account, media, options, context);
    },

    // Uploaded ahead as private; at the due time only the requested privacy is set (stage.ts).
    stage: (post, account, media, options, context) =>
      staging.stage(post, media, options, accessToken(account, context), context),

    // A staged private video that will not be published is deleted (stage.ts).
    discardStaged: (handle, account, context) =>
      staging.discard(handle, accessToken(account, context), context),

    async publish(post, account, media, options, context): Promise<PublishResult> {
      const video = media[0];
      if (media.length !== 1 || video?.kind !== 'video') {
        throw new PlatformError('media_rejected', 'YouTube takes exactly one video');
      }
      const token = accessToken(account, context);
      const staged = await staging.publishStaged(post, video, options, token, context);
      if (staged) return staged;
      const sessionKey = `${context.idempotencyKey}:${video.key}`;
      const uploaded = await uploadVideo({
        uploadUrl: config.uploadUrl,
        chunkBytes: config.chunkBytes,
        resume: config.resume,
        token,
        video,
        metadata: videoMetadata(post, options),
        signal: context.signal,
        logger: context.logger,
        ...(openSessions.has(sessionKey) ? { sessionUrl: openSessions.get(sessionKey)!.url } : {}),
        onSession: (url) => rememberSession(sessionKey, url),
      });
      openSessions.delete(sessionKey);

      if (options.thumbnailUrl) {
        // The video is live: a thumbnail problem must not fail (and so re-upload) it.
        try {
          const image = await context.resolveOwnMedia?.(options.thumbnailUrl);
          if (!image)
            throw new PlatformError('media_unavailable', 'thumbnailUrl is not media of this service');
          await setThumbnail({
            uploadUrl: config.uploadUrl,
            token,
            videoId: uploaded.id,
            image,
            signal: context.signal,
          });
        } catch (error) {
          context.logger.warn(
            {
              videoId: uploaded.id,
              code: error instanceof PlatformError ? error.code : 'internal',
              message: errorMessage(error),
            },
            'YouTube video uploaded but its thumbnail was not set',
          );
        }
      }
      return { platformPostId: uploaded.id, url: `https://youtu.be/${uploaded.id}` };
    },

    // commentThreads.insert (scope youtube.force-ssl): a top-level comment on the uploaded video.
    async comment(parent, text, account, _options, context): Promise<PublishResult> {
      const token = accessToken(account, context);
      const url = new URL(`${config.apiUrl}/commentThreads`);
      url.searchParams.set('part', 'snippet');
      const body = JSON.stringify({
        snippet: { videoId: parent.platformPostId, topLevelComment: { snippet: { textOriginal: text } } },
      });
      const response = await googleFetch(
        token,
        url,
        { method: 'POST', body, headers: { 'content-type': 'application/json' }, signal: context.signal },
        'the comment',
      );
      if (!response.ok) throw await failure(response, 'the comment');
      const thread = (await readJson(response)) as { id?: string } | undefined;
      if (!thread?.id) throw new PlatformError('internal', 'YouTube created the comment but returned no id');
      return {
        platformPostId: thread.id,
        url: `https://www.youtube.com/watch?v=${encodeURIComponent(parent.platformPostId)}&lc=${encodeURIComponent(thread.id)}`,
      };
    },

    // The manifest's `categoryId` field loads its choices from the channel (contract section C).
    async optionChoices(account, field, _values, context) {
      if (field !== 'categoryId') return [];
      return videoCategoryChoices(config, accessToken(account, context), context.signal);
    },

    metricsBatchSize: youTubeMetricsBatchSize,
    metrics(targets, account, context) {
      return youTubePostMetrics(config, accessToken(account, context), targets, context.signal);
    },
    accountMetrics(account, context) {
      return youTubeAccountMetrics(config, accessToken(account, context), context.signal);
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const token = accessToken(account, context);
      const url = new URL(`${config.apiUrl}/channels`);
      url.searchParams.set('part', 'snippet');
      url.searchParams.set('mine', 'true');
      const response = await googleFetch(token, url, { signal: context?.signal }, 'the channel lookup');
      if (!response.ok) throw await failure(response, 'the channel lookup');
      const channel = ((await readJson(response)) as ChannelList | undefined)?.items?.[0];
      if (!channel) {
        throw new PlatformError(
          'target_unreachable',
          'This Google account has no YouTube channel; create one first',
        );
      }
      const thumbnails = channel.snippet?.thumbnails;
      const avatarUrl = thumbnails?.high?.url ?? thumbnails?.medium?.url ?? thumbnails?.default?.url;
      return {
        name: channel.snippet?.title ?? channel.id,
        ...(channel.snippet?.customUrl ? { username: channel.snippet.customUrl } : {}),
        ...(avatarUrl ? { avatarUrl } : {}),
        platformAccountId: channel.id,
      };
    },
  };
}

function credentialsOf(account: PlatformAccount): YouTubeCredentials {
  const parsed = youTubeCredentialsSchema.safeParse(account.credentials);
  if (!parsed.success) {
    throw new PlatformError(
      'credentials_invalid',
      'YouTube credentials need refreshToken, clientId and clientSecret',
    );
  }
  return parsed.data;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
