import { PlatformError } from '../../errors.ts';
import type { PublishResult } from '../types.ts';

/** `com.atproto.repo.strongRef`: a record's URI and the CID of the version replied to. */
export interface StrongRef {
  uri: string;
  cid: string;
}

/** The `replyRef` a Bluesky publish returns: the post's strong ref as JSON. */
export function replyRefOf(ref: StrongRef): string {
  return JSON.stringify({ uri: ref.uri, cid: ref.cid });
}

/**
 * The strong ref stored with an earlier result, or undefined when the result has none (a post
 * published before replies existed): the caller then reads the CID with `getRecord`.
 */
export function strongRefOf(result: PublishResult): StrongRef | undefined {
  if (!result.replyRef) return undefined;
  try {
    const parsed = JSON.parse(result.replyRef) as Partial<StrongRef>;
    if (
      typeof parsed.uri === 'string' &&
      typeof parsed.cid === 'string' &&
      parsed.uri === result.platformPostId
    )
      return { uri: parsed.uri, cid: parsed.cid };
  } catch {
    // Not ours: read it again below.
  }
  return undefined;
}

/** The parts of an `at://did/collection/rkey` post URI. */
export function parsePostUri(uri: string): { repo: string; collection: string; rkey: string } {
  const match = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
  if (!match)
    throw new PlatformError('content_rejected', `Bluesky cannot reply to ${uri}: not an at:// post URI`, {
      retryable: false,
    });
  return { repo: match[1]!, collection: match[2]!, rkey: match[3]! };
}
