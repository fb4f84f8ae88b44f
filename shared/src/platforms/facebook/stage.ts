import { isPlatformError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { MediaFile } from '../../media/media-file.ts';
import type { PostContent, PublishResult, StagedMedia } from '../types.ts';
import type { GraphClient } from './graph.ts';

/*
 * Staging on Facebook: a post's video is uploaded to the Page ahead of the due time as an
 * unpublished video (`published=false` on the Page's videos edge: uploaded and processed, shown
 * nowhere), and at the due time one update of the Video node (`published=true`) publishes it.
 * Facebook keeps an unpublished video; a handle is used for a day. A staged video that will not
 * be published is deleted (`DELETE /{video-id}`, the Video reference's documented delete).
 */

const stagedLifetimeMs = 24 * 60 * 60_000;

interface FacebookStaged {
  video: string;
  /** What the video was uploaded with: a publish of anything else uploads its own. */
  of: string;
}

function fingerprint(post: PostContent, media: readonly MediaFile[]): string {
  return JSON.stringify([post.message, media.map((f) => f.key)]);
}

export function facebookStagedMedia(
  video: string,
  post: PostContent,
  media: readonly MediaFile[],
): StagedMedia {
  const handle: FacebookStaged = { video, of: fingerprint(post, media) };
  return { handle: JSON.stringify(handle), expiresAt: new Date(Date.now() + stagedLifetimeMs) };
}

/**
 * The due-time call for a staged video: publish it. Undefined when there is no usable handle or
 * the video is gone (deleted in the meantime): the caller uploads as usual.
 */
export async function publishStagedVideo(
  client: GraphClient,
  page: string,
  staged: string | undefined,
  post: PostContent,
  media: readonly MediaFile[],
  logger: Logger,
): Promise<PublishResult | undefined> {
  const video = stagedVideo(staged, fingerprint(post, media));
  if (!video) return undefined;
  try {
    await client.post(`/${video}`, { published: true }, 'publishing the staged video');
  } catch (error) {
    // Graph's "object does not exist" (code 100, subcode 33): the staged upload is gone; upload again.
    if (isPlatformError(error) && error.code === 'target_unreachable') {
      logger.warn({ video }, 'the staged Facebook video is gone; uploading again');
      return undefined;
    }
    throw error;
  }
  return { platformPostId: video, url: `https://www.facebook.com/${page}/videos/${video}` };
}

function stagedVideo(staged: string | undefined, expected: string): string | undefined {
  if (!staged) return undefined;
  try {
    const parsed = JSON.parse(staged) as Partial<FacebookStaged>;
    if (typeof parsed.video === 'string' && parsed.of === expected) return parsed.video;
  } catch {
    // Not a handle of ours: publish as usual.
  }
  return undefined;
}

/** Deletes a staged (unpublished) video; one already gone counts as deleted. */
export async function discardStagedVideo(client: GraphClient, staged: string, logger: Logger): Promise<void> {
  let video: string | undefined;
  try {
    const parsed = JSON.parse(staged) as Partial<FacebookStaged>;
    if (typeof parsed.video === 'string' && /^\d+$/.test(parsed.video)) video = parsed.video;
  } catch {
    // Not a handle of ours: nothing to delete.
  }
  if (!video) return;
  try {
    await client.delete(`/${video}`, 'deleting the staged video');
  } catch (error) {
    if (isPlatformError(error) && error.code === 'target_unreachable') {
      logger.info({ video }, 'the staged Facebook video was already gone');
      return;
    }
    throw error;
  }
}
