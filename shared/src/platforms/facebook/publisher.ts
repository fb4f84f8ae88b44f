import { isPlatformError, PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { readRange } from '../../media/read-range.ts';
import { AttemptMemory } from '../attempt-memory.ts';
import type { AccountProfile, PlatformAccount, PublishContext, Publisher, PublishResult } from '../types.ts';
import type { FacebookConfig } from './config.ts';
import { GraphClient, postGraphComment } from './graph.ts';
import { facebookAccountMetrics, facebookPostMetrics } from './metrics.ts';
import {
  type FacebookCredentials,
  type FacebookOptions,
  facebookCredentialsSchema,
  facebookOptionsSchema,
} from './options.ts';
import { discardStagedVideo, facebookStagedMedia, publishStagedVideo } from './stage.ts';
import { validateFacebookPost } from './validate.ts';

interface Created {
  id?: string;
  post_id?: string;
}
interface UploadSession {
  video_id?: string;
  upload_session_id?: string;
  start_offset?: string;
  end_offset?: string;
}
interface Page {
  id?: string;
  name?: string;
  username?: string;
  picture?: { data?: { url?: string } };
}

/** Time per chunk on top of a minute: a slow link must not look like a dead one. */
const chunkTimeoutMs = (bytes: number) => 60_000 + Math.ceil(bytes / 100);

/**
 * Publishes to a Facebook Page with a Page access token: text to `/feed`, one photo to
 * `/photos`, several photos as unpublished photos attached to one feed post, a video to
 * `/videos` (fetched by URL, or uploaded in chunks from storage when large).
 */
export function createFacebookPublisher(config: FacebookConfig): Publisher<FacebookOptions> {
  /** Publishes that sent their feed post: a retry refused as a duplicate (506) is that post, whose answer was lost. */
  const sentPosts = new AttemptMemory<true>();

  function graph(account: PlatformAccount, signal?: AbortSignal): GraphClient {
    return new GraphClient({
      base: config.graphBase,
      token: credentialsOf(account).pageAccessToken,
      signal,
      platform: 'Facebook',
    });
  }

  async function publishVideo(
    client: GraphClient,
    page: string,
    video: MediaFile,
    message: string,
    published = true,
  ): Promise<string> {
    if (video.size <= config.resumableVideoBytes) {
      const created = await client.post<Created>(
        `/${page}/videos`,
        { file_url: video.url, description: message || undefined, published },
        'the video',
        config.videoBase,
      );
      if (!created.id) throw new PlatformError('internal', 'Facebook accepted the video but returned no id');
      return created.id;
    }
    const session = await client.post<UploadSession>(
      `/${page}/videos`,
      { upload_phase: 'start', file_size: video.size },
      'the video upload',
      config.videoBase,
    );
    if (!session.upload_session_id || !session.video_id) {
      throw new PlatformError('platform_unavailable', 'Facebook started no video upload session');
    }
    let start = Number(session.start_offset ?? 0);
    let end = Number(session.end_offset ?? 0);
    while (start < end) {
      const bytes = await readRange(video, start, end - 1);
      const form = new FormData();
      form.set('upload_phase', 'transfer');
      form.set('upload_session_id', session.upload_session_id);
      form.set('start_offset', String(start));
      form.set('video_file_chunk', new Blob([bytes], { type: 'application/octet-stream' }), video.filename);
      const next = await client.postMultipart<UploadSession>(
        `/${page}/videos`,
        form,
        'the video upload',
        config.videoBase,
        chunkTimeoutMs(bytes.length),
      );
      const nextStart = Number(next.start_offset);
      if (!(nextStart > start))
        throw new PlatformError('platform_unavailable', 'Facebook made no progress on the upload');
      start = nextStart;
      end = Number(next.end_offset);
    }
    await client.post(
      `/${page}/videos`,
      {
        upload_phase: 'finish',
        upload_session_id: session.upload_session_id,
        description: message || undefined,
        published,
      },
      'the video',
      config.videoBase,
    );
    return session.video_id;
  }

  return {
    id: 'facebook',
    displayName: 'Facebook',
    optionsSchema: facebookOptionsSchema,
    credentialsSchema: facebookCredentialsSchema,
    concurrency: 10,
    // A resend refused as a duplicate (code 506) is resolved from the page's recent posts.
    dedupe: 'lookup',

    async validate(post, account, media, options) {
      return validateFacebookPost(post, account, media, options, config.resumableVideoBytes);
    },

    // An unpublished video uploaded ahead (stage.ts); at the due time one update publishes it.
    async stage(post, account, media, _options, context) {
      const video = media.find((m) => m.kind === 'video');
      if (!video) throw new PlatformError('media_rejected', 'Only a video is staged on Facebook');
      const id = await publishVideo(
        graph(account, context.signal),
        pageOf(account),
        video,
        post.message,
        false,
      );
      return facebookStagedMedia(id, post, media);
    },

    // A staged video that will not be published is deleted (stage.ts).
    async discardStaged(handle, account, context) {
      await discardStagedVideo(graph(account, context.signal), handle, context.logger);
    },

    async publish(post, account, media, options, context: PublishContext): Promise<PublishResult> {
      const page = pageOf(account);
      const client = graph(account, context.signal);
      const message = post.message;
      const video = media.find((m) => m.kind === 'video');
      const staged =
        video && (await publishStagedVideo(client, page, context.staged, post, media, context.logger));
      if (staged) return staged;
      if (video) {
        const id = await publishVideo(client, page, video, message);
        return { platformPostId: id, url: `https://www.facebook.com/${page}/videos/${id}` };
      }
      if (media.length === 1) {
        const photo = await client.post<Created>(
          `/${page}/photos`,
          // The Photo reference documents `caption`; `message` carries the same text for readers of the feed-style name.
          {
            url: media[0]!.url,
            caption: message || undefined,
            message: message || undefined,
            // The Photo edge's custom alt text (Facebook otherwise writes its own automatic one).
            alt_text_custom: media[0]!.altText,
            published: true,
          },
          'the photo',
        );
        const id = photo.post_id ?? photo.id;
        if (!id) throw new PlatformError('internal', 'Facebook accepted the photo but returned no id');
        return { platformPostId: id, url: `https://www.facebook.com/${id}` };
      }
      const attached: Record<string, string> = {};
      for (const [index, file] of media.entries()) {
        const photo = await client.post<Created>(
          `/${page}/photos`,
          { url: file.url, published: false, alt_text_custom: file.altText },
          'a photo',
        );
        if (!photo.id) throw new PlatformError('internal', 'Facebook accepted a photo but returned no id');
        attached[`attached_media[${index}]`] = JSON.stringify({ media_fbid: photo.id });
      }
      const retry = sentPosts.get(context.idempotencyKey) === true || context.resumed !== undefined;
      sentPosts.set(context.idempotencyKey, true);
      let created: Created;
      try {
        created = await client.post<Created>(
          `/${page}/feed`,
          {
            message: message || undefined,
            ...(media.length === 0 ? { link: options.link } : {}),
            ...attached,
          },
          'the post',
        );
      } catch (error) {
        const earlier =
          retry && isPlatformError(error) && /\(code 506/.test(error.message)
            ? await recentPostWith(client, page, message)
            : undefined;
        if (!earlier) throw error;
        created = { id: earlier };
      }
      sentPosts.delete(context.idempotencyKey);
      if (!created.id) throw new PlatformError('internal', 'Facebook created the post but returned no id');
      return { platformPostId: created.id, url: `https://www.facebook.com/${created.id}` };
    },

    // `POST /{post-id}/comments` `message` as the Page (pages_manage_engagement).
    async comment(parent, text, account, _options, context): Promise<PublishResult> {
      const id = await postGraphComment(graph(account, context.signal), parent.platformPostId, text);
      return { platformPostId: id, url: `https://www.facebook.com/${id}` };
    },

    metrics(targets, account, context) {
      return facebookPostMetrics(graph(account, context.signal), targets);
    },

    accountMetrics(account, context) {
      return facebookAccountMetrics(graph(account, context.signal), pageOf(account));
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const page = pageOf(account);
      // `/me` with a Page token is that page: a token of another page is caught here.
      const found = await graph(account, context?.signal).get<Page>(
        '/me',
        { fields: 'id,name,username,picture{url}' },
        'the page lookup',
      );
      if (found.id !== page) {
        throw new PlatformError(
          'target_unreachable',
          `This token belongs to page ${found.id ?? '?'}, not ${page}`,
        );
      }
      const avatarUrl = found.picture?.data?.url;
      return {
        name: found.name ?? page,
        ...(found.username ? { username: found.username } : {}),
        ...(avatarUrl ? { avatarUrl } : {}),
        platformAccountId: page,
      };
    },
  };
}

/** The page's recent post with exactly this message, if any. */
async function recentPostWith(
  client: GraphClient,
  page: string,
  message: string,
): Promise<string | undefined> {
  const recent = await client.get<{ data?: { id?: string; message?: string }[] }>(
    `/${page}/posts`,
    { fields: 'id,message', limit: 5 },
    'the recent posts',
  );
  return recent.data?.find((p) => p.message === message)?.id;
}

function pageOf(account: PlatformAccount): string {
  if (!/^\d+$/.test(account.platformAccountId)) {
    throw new PlatformError('target_unreachable', 'A Facebook platformAccountId is the numeric page id');
  }
  return account.platformAccountId;
}

function credentialsOf(account: PlatformAccount): FacebookCredentials {
  const parsed = facebookCredentialsSchema.safeParse(account.credentials);
  if (!parsed.success)
    throw new PlatformError('credentials_invalid', 'Facebook credentials need a pageAccessToken');
  return parsed.data;
}
