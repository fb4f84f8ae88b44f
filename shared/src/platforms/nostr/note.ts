import { createHash } from 'node:crypto';
import type { EventTemplate } from 'nostr-tools/pure';
import { PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import type { ReplyTarget } from '../types.ts';

export interface NoteInput {
  message: string;
  media: readonly MediaFile[];
  replyTo?: ReplyTarget | undefined;
  /** Unix seconds, from the publish intent: the same input gives the same event id. */
  createdAt: number;
  pubkey: string;
}

const eventId = /^[0-9a-f]{64}$/;

/**
 * A NIP-01 kind-1 note, built only from its input so that a resend of the same intent signs the
 * same event (same id) and relays answer it as a duplicate instead of storing a second note.
 * Media go by our public URL: each URL on its own line at the end of the content and described
 * by a NIP-92 `imeta` tag; a reply carries NIP-10 marked `e` tags (root, reply) and a `p` tag.
 */
export async function noteTemplate(input: NoteInput): Promise<EventTemplate> {
  const urls = input.media.map((file) => file.url).filter((url) => !input.message.includes(url));
  const content = [input.message.trimEnd(), urls.join('\n')].filter((part) => part !== '').join('\n\n');
  const tags: string[][] = [];
  for (const file of input.media) tags.push(await imetaTag(file));
  if (input.replyTo) tags.push(...replyTags(input.replyTo, input.pubkey));
  return { kind: 1, created_at: input.createdAt, tags, content };
}

/** NIP-92 inline metadata: url, type, size, the SHA-256 of the bytes (NIP-94 `x`) and the alt text. */
async function imetaTag(file: MediaFile): Promise<string[]> {
  const tag = ['imeta', `url ${file.url}`, `m ${file.contentType}`];
  tag.push(`x ${await sha256Of(file)}`, `size ${file.size}`);
  const alt = file.altText?.replace(/\s+/g, ' ').trim();
  if (alt) tag.push(`alt ${alt}`);
  return tag;
}

async function sha256Of(file: MediaFile): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of await file.stream()) hash.update(chunk as Buffer);
  } catch (error) {
    throw new PlatformError('media_unavailable', `Could not read "${file.filename}" from storage`, {
      cause: error,
    });
  }
  return hash.digest('hex');
}

/** NIP-10: `root` always; `reply` too when answering a later part; the relay that took each as hint. */
function replyTags(replyTo: ReplyTarget, pubkey: string): string[][] {
  const { root, parent } = replyTo;
  for (const id of [root.platformPostId, parent.platformPostId]) {
    if (!eventId.test(id))
      throw new PlatformError('content_rejected', 'The note replied to has no valid Nostr event id', {
        retryable: false,
      });
  }
  const tags = [['e', root.platformPostId, relayHint(root.replyRef), 'root', pubkey]];
  if (parent.platformPostId !== root.platformPostId)
    tags.push(['e', parent.platformPostId, relayHint(parent.replyRef), 'reply', pubkey]);
  tags.push(['p', pubkey]);
  return tags;
}

/** `replyRef` holds the first relay that accepted the note (see the publisher); anything else is no hint. */
function relayHint(replyRef: string | undefined): string {
  return replyRef && /^wss?:\/\/\S{1,500}$/.test(replyRef) ? replyRef : '';
}
