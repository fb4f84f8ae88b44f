import { Readable } from 'node:stream';
import { mediaKindOf } from '../../src/media/kinds.ts';
import type { MediaFile } from '../../src/media/media-file.ts';

/** A MediaFile over bytes in memory, counting reads so tests can prove ranges were used. */
export interface MemoryMediaFile extends MediaFile {
  readonly reads: { start: number; end: number }[];
}

export function memoryMedia(
  bytes: Uint8Array<ArrayBuffer>,
  init: { filename: string; contentType: string; key?: string; url?: string },
): MemoryMediaFile {
  const key = init.key ?? init.filename.replace(/[^A-Za-z0-9._-]/g, '_');
  const reads: { start: number; end: number }[] = [];
  return {
    key,
    filename: init.filename,
    contentType: init.contentType,
    size: bytes.length,
    kind: mediaKindOf(init.contentType),
    url: init.url ?? `https://media.example.test/media/${key}`,
    reads,
    blob: async () => new Blob([bytes], { type: init.contentType }),
    stream: async (range) => {
      const start = range?.start ?? 0;
      const end = range?.end ?? bytes.length - 1;
      reads.push({ start, end });
      return Readable.from([Buffer.from(bytes.subarray(start, end + 1))]);
    },
  };
}

/** Deterministic, non-repeating-looking bytes, so a reordered or duplicated chunk is caught. */
export function patternBytes(size: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
