import { Readable } from 'node:stream';
import { mediaKindOf } from '../../../src/media/kinds.ts';
import type { MediaFile } from '../../../src/media/media-file.ts';

/** Minimal files whose leading bytes are what each format starts with, padded to `size`. */
const headers: Record<string, Buffer> = {
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/webp': Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'),
  'image/gif': Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00', 'latin1'),
  'video/mp4': Buffer.from('\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2', 'latin1'),
  'video/webm': Buffer.from([0x1a, 0x45, 0xdf, 0xa3]),
  'video/quicktime': Buffer.from('\x00\x00\x00\x14ftypqt  \x00\x00\x00\x00qt  ', 'latin1'),
  'application/pdf': Buffer.from('%PDF-1.4\n', 'latin1'),
};

export function sampleBytes(contentType: string, size = 64): Buffer {
  const header = headers[contentType] ?? Buffer.from('data');
  const bytes = Buffer.alloc(Math.max(size, header.length), 0x2e);
  header.copy(bytes);
  // Distinct content per call, so a test can tell which upload is which.
  if (bytes.length > header.length + 4)
    bytes.writeUInt32BE(Math.floor(Math.random() * 2 ** 32), header.length);
  return bytes;
}

let counter = 0;

/** An in-memory MediaFile, as storage would hand it to a publisher. */
export function mediaFile(
  contentType: string,
  options: { size?: number; filename?: string } = {},
): MediaFile & { bytes: Buffer } {
  const bytes = sampleBytes(contentType, options.size);
  const key = `file-${++counter}`;
  return {
    key,
    filename: options.filename ?? `${key}.${contentType.split('/')[1]}`,
    contentType,
    size: bytes.length,
    kind: mediaKindOf(contentType),
    url: `http://127.0.0.1/media/${key}`,
    bytes,
    blob: async () => new Blob([new Uint8Array(bytes)], { type: contentType }),
    stream: async (range) => Readable.from(range ? bytes.subarray(range.start, range.end + 1) : bytes),
  };
}
