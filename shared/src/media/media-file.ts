import type { Readable } from 'node:stream';
import type { MediaKind } from './kinds.ts';

/** What validation knows about a media file: the stored object's real size and type. */
export interface MediaInfo {
  key: string;
  filename: string;
  contentType: string;
  size: number;
  kind: MediaKind;
  /** Public URL, for platforms that fetch media themselves. */
  url: string;
  /** The description a screen reader reads (`altText` on the post's media reference); absent when none was given. */
  altText?: string;
}

/** A media file a publisher can read. Reads are lazy so nothing is loaded before it is sent. */
export interface MediaFile extends MediaInfo {
  /** The bytes as a Blob suitable for FormData; file-backed where the storage allows it. */
  blob(): Promise<Blob>;
  /** A byte range (inclusive `end`), for chunked uploads. */
  stream(range?: { start: number; end: number }): Promise<Readable>;
}
