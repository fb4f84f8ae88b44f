import { PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import type { GoogleAccessToken } from '../google-oauth.ts';
import type { DiscardContext, PostContent, PublishContext, PublishResult, StagedMedia } from '../types.ts';
import type { YouTubeConfig } from './config.ts';
import { failure, googleFetch } from './google-fetch.ts';
import { videoMetadata } from './metadata.ts';
import type { YouTubeOptions } from './options.ts';
import { setThumbnail } from './thumbnail.ts';
import { uploadVideo } from './upload.ts';

/*
 * Staging on YouTube: the video is uploaded ahead of the due time as `private` (nobody sees it),
 * and at the due time one small `videos.update` of the status part gives it the requested
 * privacy. That is the Data API's documented way to change a video's visibility. `publishAt`
 * (YouTube publishing by itself) is not used: a post edited, moved or deleted after staging would
 * still go out at the old time, and changing that needs the same edit permission anyway.
 *
 * videos.update needs the `youtube` or `youtube.force-ssl` scope; `youtube.upload` may only
 * insert. A connection without it is not staged (the due-time publish uploads as usual), so no
 * private copy is ever left behind by a publish that cannot finish it. A staged video that will not
 * be published (the post was edited, deleted, or moved back to draft) is removed with
 * `videos.delete`, which the same scopes allow.
 */

const editScopes = [
  'https://www.googleapis.com/auth/youtube',
  'https://www.googleapis.com/auth/youtube.force-ssl',
];

/** How long we use a staged upload. YouTube keeps a private video indefinitely; a day bounds surprises. */
const stagedLifetimeMs = 24 * 60 * 60_000;

interface YouTubeStaged {
  videoId: string;
  /** What the upload was made from: a publish of anything else uploads its own. */
  of: string;
}

function fingerprint(post: PostContent, video: MediaFile, options: YouTubeOptions): string {
  return JSON.stringify([post.message, video.key, options]);
}

function parseStaged(staged: string | undefined, expected: string): string | undefined {
  if (!staged) return undefined;
  try {
    const parsed = JSON.parse(staged) as Partial<YouTubeStaged>;
    if (typeof parsed.videoId === 'string' && parsed.of === expected) return parsed.videoId;
  } catch {
    // Not a handle of ours: publish as usual.
  }
  return undefined;
}

export function youTubeStaging(config: YouTubeConfig) {
  /** Whether this connection may change a video after upload (learning its scopes by a refresh if unknown). */
  async function mayEdit(token: GoogleAccessToken): Promise<boolean> {
    await token.get();
    if (token.scope === undefined) await token.refresh();
    const granted = (token.scope ?? '').split(' ');
    return editScopes.some((scope) => granted.includes(scope));
  }

  /** The custom thumbnail; a problem is logged, never thrown (as at publish: the video is up). */
  async function thumbnail(
    videoId: string,
    thumbnailUrl: string,
    token: GoogleAccessToken,
    context: PublishContext,
  ) {
    try {
      const image = await context.resolveOwnMedia?.(thumbnailUrl);
      if (!image) throw new PlatformError('media_unavailable', 'thumbnailUrl is not media of this service');
      await setThumbnail({ uploadUrl: config.uploadUrl, token, videoId, image, signal: context.signal });
    } catch (error) {
      context.logger.warn(
        { videoId, code: error instanceof PlatformError ? error.code : 'internal' },
        'staged YouTube video uploaded but its thumbnail was not set',
      );
    }
  }

  return {
    /** Uploads the video as private; thumbnail included. */
    async stage(
      post: PostContent,
      media: readonly MediaFile[],
      options: YouTubeOptions,
      token: GoogleAccessToken,
      context: PublishContext,
    ): Promise<StagedMedia> {
      const video = media[0];
      if (media.length !== 1 || video?.kind !== 'video')
        throw new PlatformError('media_rejected', 'YouTube takes exactly one video');
      if (!(await mayEdit(token))) {
        throw new PlatformError(
          'credentials_invalid',
          'This YouTube connection may upload but not change a video afterwards (no youtube.force-ssl scope), so the video is uploaded at the due time instead',
          { retryable: false },
        );
      }
      const metadata = videoMetadata(post, options);
      const uploaded = await uploadVideo({
        uploadUrl: config.uploadUrl,
        chunkBytes: config.chunkBytes,
        resume: config.resume,
        token,
        video,
        metadata: {
          ...metadata,
          status: { ...metadata.status, privacyStatus: 'private', publishAt: undefined },
        },
        signal: context.signal,
        logger: context.logger,
      });
      if (options.thumbnailUrl) await thumbnail(uploaded.id, options.thumbnailUrl, token, context);
      const handle: YouTubeStaged = { videoId: uploaded.id, of: fingerprint(post, video, options) };
      return { handle: JSON.stringify(handle), expiresAt: new Date(Date.now() + stagedLifetimeMs) };
    },

    /** Deletes a staged private video that will not be published; one already gone counts as deleted. */
    async discard(staged: string, token: GoogleAccessToken, context: DiscardContext): Promise<void> {
      let videoId: string | undefined;
      try {
        const parsed = JSON.parse(staged) as Partial<YouTubeStaged>;
        if (typeof parsed.videoId === 'string') videoId = parsed.videoId;
      } catch {
        // Not a handle of ours: nothing to delete.
      }
      if (!videoId) return;
      const url = new URL(`${config.apiUrl}/videos`);
      url.searchParams.set('id', videoId);
      const response = await googleFetch(
        token,
        url,
        { method: 'DELETE', signal: context.signal },
        'deleting the staged video',
      );
      if (response.status === 404) {
        await response.body?.cancel();
        context.logger.info({ videoId }, 'the staged YouTube video was already gone');
        return;
      }
      if (!response.ok) throw await failure(response, 'deleting the staged video');
      await response.body?.cancel();
    },

    /**
     * The due-time call for a staged upload: the requested status, in one videos.update. Answers
     * undefined when there is no usable handle, or the video is gone (the caller uploads).
     */
    async publishStaged(
      post: PostContent,
      video: MediaFile,
      options: YouTubeOptions,
      token: GoogleAccessToken,
      context: PublishContext,
    ): Promise<PublishResult | undefined> {
      const videoId = parseStaged(context.staged, fingerprint(post, video, options));
      if (!videoId) return undefined;
      const url = new URL(`${config.apiUrl}/videos`);
      url.searchParams.set('part', 'status');
      const response = await googleFetch(
        token,
        url,
        {
          method: 'PUT',
          headers: { 'content-type': 'application/json; charset=UTF-8' },
          // The whole status part: videos.update resets properties left out.
          body: JSON.stringify({ id: videoId, status: videoMetadata(post, options).status }),
          signal: context.signal,
        },
        'publishing the staged video',
      );
      if (response.status === 404) {
        await response.body?.cancel();
        context.logger.warn({ videoId }, 'the staged YouTube video is gone; uploading again');
        return undefined;
      }
      if (!response.ok) throw await failure(response, 'publishing the staged video');
      await response.body?.cancel();
      return { platformPostId: videoId, url: `https://youtu.be/${videoId}` };
    },
  };
}
