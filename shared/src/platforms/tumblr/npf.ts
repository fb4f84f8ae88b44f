import { randomUUID } from 'node:crypto';
import { extensionFor } from '../../media/kinds.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { textBlocks } from './limits.ts';
import type { TumblrOptions } from './options.ts';

/** An NPF content block (https://www.tumblr.com/docs/npf), as far as we send them. */
export type NpfBlock =
  | { type: 'text'; text: string; formatting?: NpfLink[] }
  | {
      type: 'image';
      media: { type: string; identifier: string }[];
      alt_text?: string;
    }
  | { type: 'video'; media: { type: string; identifier: string } };

interface NpfLink {
  start: number;
  end: number;
  type: 'link';
  url: string;
}

/** What `POST /v2/blog/{blog}/posts` takes as JSON (or as the multipart `json` part). */
export interface NpfPost {
  content: NpfBlock[];
  state: string;
  tags?: string;
}

/**
 * The post in Neue Post Format: one text block per paragraph (links marked as link formatting,
 * whose offsets Tumblr counts in UTF-16 code units as JavaScript does), then one image block per
 * image and a video block, each naming its upload by `identifier`: the multipart part of the same
 * request that carries the file.
 */
export function npfPost(message: string, media: readonly MediaFile[], options: TumblrOptions): NpfPost {
  const content: NpfBlock[] = textBlocks(message).map((text) => {
    const links = [...text.matchAll(/https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'’]/g)].map((m) => ({
      start: m.index,
      end: m.index + m[0].length,
      type: 'link' as const,
      url: m[0],
    }));
    return links.length > 0 ? { type: 'text', text, formatting: links } : { type: 'text', text };
  });
  media.forEach((file, index) => {
    const identifier = partName(index);
    if (file.kind === 'video') content.push({ type: 'video', media: { type: file.contentType, identifier } });
    else
      content.push({
        type: 'image',
        media: [{ type: file.contentType, identifier }],
        ...(file.altText ? { alt_text: file.altText } : {}),
      });
  });
  const tags = (options.tags ?? []).map((tag) => tag.replace(/^#/, '').trim()).filter(Boolean);
  return {
    content,
    state: options.state ?? 'published',
    ...(tags.length > 0 ? { tags: tags.join(',') } : {}),
  };
}

export function partName(index: number): string {
  return `media${index}`;
}

/**
 * The multipart body Tumblr documents for NPF with uploads: a `json` part (`Content-Type:
 * application/json`, no filename, as in Tumblr's example) and each file as its own part named by
 * its block's `identifier`. Built by hand because FormData gives every Blob a filename.
 */
export async function npfMultipart(
  post: NpfPost,
  media: readonly MediaFile[],
): Promise<{ body: Blob; contentType: string }> {
  const boundary = `postwave-${randomUUID()}`;
  const parts: (string | Blob)[] = [
    `--${boundary}\r\nContent-Disposition: form-data; name="json"\r\nContent-Type: application/json\r\n\r\n`,
    JSON.stringify(post),
    '\r\n',
  ];
  for (const [index, file] of media.entries()) {
    const base = file.filename.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '') || 'media';
    const name = base.includes('.') ? base : `${base}.${extensionFor(file.contentType)}`;
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${partName(index)}"; filename="${name}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      await file.blob(),
      '\r\n',
    );
  }
  parts.push(`--${boundary}--\r\n`);
  return { body: new Blob(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
