import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Storage } from '@postwave/shared';
import { runFfmpeg } from './ffmpeg.ts';
import { type Inspection, maxInputPixels, storeThumbnail } from './thumbnail.ts';

/*
 * A video's poster (its frame at one second, or halfway through a shorter one), size and duration,
 * read with ffmpeg (docs/media-library.md#thumbnails-and-posters). The bytes are copied to a
 * temporary file first: an MP4 whose index sits at its end cannot be read from a pipe.
 */

/**
 * The demuxer ffmpeg is told to use, per accepted video type. It is never left to guess from the
 * bytes: a playlist (HLS, concat) dressed as a video would make it open URLs or local files.
 */
const demuxers: Record<string, string> = {
  'video/mp4': 'mov',
  'video/quicktime': 'mov',
  'video/webm': 'matroska',
};

/** Each ffmpeg run's deadline; past it the video keeps no poster. */
const runTimeoutMs = 30_000;
/** Videos inspected at once by one process (each is a copy to disk and one or two ffmpeg runs). */
const maxConcurrent = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function takeTurn(): Promise<void> {
  if (running < maxConcurrent) running++;
  // A finished inspection hands its turn straight to the next in line (see `endTurn`).
  else await new Promise<void>((go) => waiting.push(go));
}

function endTurn(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/** A video has no poster: ffmpeg found no frame, or refused the file (the caller logs it). */
export class PosterError extends Error {
  override name = 'PosterError';
}

export function makesPoster(contentType: string): boolean {
  return contentType in demuxers;
}

/** The poster, size and duration of the video at `key`; throws PosterError when there is none. */
export async function inspectVideo(
  storage: Storage,
  key: string,
  contentType: string,
  ffmpeg: string,
): Promise<Inspection> {
  const demuxer = demuxers[contentType];
  if (!demuxer) throw new PosterError(`no poster for ${contentType}`);
  await takeTurn();
  try {
    return await inspectCopy(storage, key, demuxer, ffmpeg);
  } finally {
    endTurn();
  }
}

/** Copies the video to a private temporary directory, reads it there, and removes the copy. */
async function inspectCopy(
  storage: Storage,
  key: string,
  demuxer: string,
  ffmpeg: string,
): Promise<Inspection> {
  const dir = await mkdtemp(join(tmpdir(), 'postwave-poster-'));
  try {
    const file = join(dir, 'video');
    await pipeline(await storage.read(key), createWriteStream(file, { mode: 0o600 }));
    // Input options: this file only, read as its declared container, its references not followed
    // (a MOV may name other files as its media: ffmpeg leaves them alone unless told otherwise).
    const references = demuxer === 'mov' ? ['-enable_drefs', '0'] : [];
    const input = ['-protocol_whitelist', 'file', '-f', demuxer, ...references, '-i', `file:${file}`];
    const probe = await runFfmpeg(ffmpeg, ['-hide_banner', '-nostdin', ...input], {
      timeoutMs: runTimeoutMs,
      maxStdout: 0,
    });
    const facts = probeFacts(probe.stderr);
    if (!facts.hasVideo) throw new PosterError(`no video stream (${lastLine(probe.stderr)})`);
    if (facts.width && facts.height && facts.width * facts.height > maxInputPixels)
      throw new PosterError(`a frame of ${facts.width}×${facts.height} is too large`);
    const frame = await frameAt(ffmpeg, input, posterSecond(facts.durationMs));
    const stored = await storeThumbnail(storage, key, frame);
    return { ...stored, ...(facts.durationMs !== undefined ? { durationMs: facts.durationMs } : {}) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One second in, or halfway through a shorter video (its first frame is often black). */
function posterSecond(durationMs: number | undefined): number {
  if (durationMs === undefined) return 0;
  return Math.min(1, durationMs / 2000);
}

/** The frame at `second` as a PNG (turned as the video is shown), or the first frame when there is none there. */
async function frameAt(ffmpeg: string, input: string[], second: number): Promise<Buffer> {
  for (const at of second > 0 ? [second, 0] : [0]) {
    const run = await runFfmpeg(
      ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-v',
        'error',
        '-ss',
        at.toFixed(3),
        ...input,
        '-map',
        '0:v:0',
        '-frames:v',
        '1',
        '-an',
        '-sn',
        '-f',
        'image2pipe',
        '-c:v',
        'png',
        'pipe:1',
      ],
      // A PNG of the largest frame sharp would take, uncompressed, is under 1 GiB; such a frame
      // is refused above, so 256 MiB is ample for any real one.
      { timeoutMs: runTimeoutMs, maxStdout: 256 * 1024 * 1024 },
    );
    if (run.timedOut) throw new PosterError('ffmpeg took too long');
    if (run.code === 0 && run.stdout.length > 0) return run.stdout;
    if (at === 0) throw new PosterError(`no frame (${lastLine(run.stderr)})`);
  }
  throw new PosterError('no frame');
}

/** What ffmpeg prints of its input: duration, first video stream's coded size. */
export function probeFacts(stderr: string): {
  hasVideo: boolean;
  durationMs?: number;
  width?: number;
  height?: number;
} {
  const duration = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(stderr);
  const video = /Stream #\d+:\d+.*?: Video: .*?, (\d{1,6})x(\d{1,6})\b/.exec(stderr);
  const durationMs = duration
    ? Math.round((Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3])) * 1000)
    : undefined;
  return {
    hasVideo: /Stream #\d+:\d+.*?: Video: /.test(stderr),
    ...(durationMs !== undefined && durationMs > 0 ? { durationMs } : {}),
    ...(video ? { width: Number(video[1]), height: Number(video[2]) } : {}),
  };
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 200);
}
