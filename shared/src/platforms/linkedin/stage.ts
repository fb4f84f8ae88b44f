import type { MediaFile } from '../../media/media-file.ts';
import type { StagedMedia } from '../types.ts';
import { type LinkedInApi, urnPath } from './api.ts';

/*
 * Staging on LinkedIn: the post's media are registered and uploaded for the author ahead of the
 * due time (Images API, or Videos API including processing until AVAILABLE); at the due time the
 * publisher checks they are still AVAILABLE and creates the post. LinkedIn documents no lifetime
 * for an uploaded asset not yet used in a post; a handle is used for a day, and an asset that is
 * gone by then is simply uploaded again.
 */

const stagedLifetimeMs = 24 * 60 * 60_000;

/** The post's `content` as the Posts API takes it. */
export type LinkedInContent = { media: { id: string } } | { multiImage: { images: { id: string }[] } };

interface LinkedInStaged {
  content: LinkedInContent;
  /** Whose media, and which files: a publish of anything else uploads its own. */
  of: string;
}

function fingerprint(author: string, media: readonly MediaFile[]): string {
  return JSON.stringify([author, media.map((f) => f.key)]);
}

export function linkedInStagedMedia(
  content: LinkedInContent,
  author: string,
  media: readonly MediaFile[],
): StagedMedia {
  const handle: LinkedInStaged = { content, of: fingerprint(author, media) };
  return { handle: JSON.stringify(handle), expiresAt: new Date(Date.now() + stagedLifetimeMs) };
}

/**
 * The staged content for this author and these files, when every asset is still AVAILABLE;
 * undefined otherwise (the caller uploads as usual).
 */
export async function stagedLinkedInContent(
  client: LinkedInApi,
  staged: string | undefined,
  author: string,
  media: readonly MediaFile[],
): Promise<LinkedInContent | undefined> {
  if (!staged) return undefined;
  let parsed: Partial<LinkedInStaged>;
  try {
    parsed = JSON.parse(staged) as Partial<LinkedInStaged>;
  } catch {
    return undefined;
  }
  if (!parsed.content || parsed.of !== fingerprint(author, media)) return undefined;
  const content = parsed.content;
  const ids = 'media' in content ? [content.media.id] : content.multiImage.images.map((i) => i.id);
  try {
    const states = await Promise.all(
      ids.map((id) =>
        client.json<{ status?: string }>(
          `/rest/${id.startsWith('urn:li:video:') ? 'videos' : 'images'}/${urnPath(id)}`,
          {},
          'the staged media',
        ),
      ),
    );
    return states.every((s) => s.status === 'AVAILABLE') ? content : undefined;
  } catch {
    // Gone or unreadable: upload again rather than fail the post.
    return undefined;
  }
}
