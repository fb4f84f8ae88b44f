import { PlatformError } from '../../errors.ts';
import { readJson } from '../../http/fetch.ts';
import type { Logger } from '../../logger.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { sleep } from '../../publish/retry.ts';
import type { GoogleAccessToken } from '../google-oauth.ts';
import type { ResumePolicy } from './config.ts';
import { failure, googleFetch } from './google-fetch.ts';
import type { VideoMetadata } from './metadata.ts';

/** The parts of YouTube's video resource we use. */
export interface UploadedVideo {
  id: string;
}

export interface UploadOptions {
  uploadUrl: string;
  chunkBytes: number;
  resume: ResumePolicy;
  token: GoogleAccessToken;
  video: MediaFile;
  metadata: VideoMetadata;
  signal: AbortSignal;
  logger: Logger;
  /** A session left by an earlier attempt of the same publish: resumed instead of uploading again. */
  sessionUrl?: string;
  /** Told the session URL once started, and `undefined` when it is gone (so nobody resumes it). */
  onSession?: (sessionUrl: string | undefined) => void;
}

type Progress = { done: UploadedVideo } | { next: number };

/** Time per chunk on top of the base timeout: a slow link must not look like a dead one. */
const chunkTimeoutMs = (bytes: number) => 60_000 + Math.ceil(bytes / 100);

/**
 * YouTube's resumable upload: start a session with the metadata, then PUT the bytes in
 * chunks (multiples of 256 KiB) read by range, so a video never sits in memory whole. After
 * a dropped or failed chunk, ask the session how much it holds and continue from there.
 */
export async function uploadVideo(options: UploadOptions): Promise<UploadedVideo> {
  const { video, signal } = options;
  let sessionUrl = options.sessionUrl;
  let progress: Progress = { next: 0 };
  if (sessionUrl) {
    const status = await queryOrNull(options, sessionUrl);
    if (status) progress = status;
    else sessionUrl = undefined;
  }
  if (!sessionUrl) {
    sessionUrl = await startSession(options);
    options.onSession?.(sessionUrl);
  }

  // Failures in a row without progress; any byte newly stored resets the count.
  let failures = 0;
  let mustQuery = false;
  while (!('done' in progress)) {
    const before = progress.next;
    const end = Math.min(before + options.chunkBytes, video.size) - 1;
    try {
      progress = mustQuery
        ? await queryStatus(options, sessionUrl)
        : await putChunk(options, sessionUrl, before, end);
      mustQuery = false;
      if ('done' in progress || progress.next > before) failures = 0;
    } catch (thrown) {
      if (!(thrown instanceof PlatformError) || !thrown.retryable || signal.aborted) throw thrown;
      if (isSessionGone(thrown)) {
        options.onSession?.(undefined);
        throw thrown;
      }
      failures++;
      if (failures >= options.resume.attempts) throw thrown;
      options.logger.debug(
        { start: before, end, failures, code: thrown.code },
        'YouTube chunk failed; asking the session what it holds',
      );
      await sleep(
        Math.min(options.resume.maxDelayMs, options.resume.baseDelayMs * 2 ** (failures - 1)),
        signal,
      );
      // Part of the chunk may have been stored before the failure: only the session knows.
      mustQuery = true;
    }
  }
  return progress.done;
}

async function startSession(options: UploadOptions): Promise<string> {
  const { video } = options;
  const url = new URL(`${options.uploadUrl}/videos`);
  url.searchParams.set('uploadType', 'resumable');
  url.searchParams.set('part', 'snippet,status');
  const response = await googleFetch(
    options.token,
    url,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-length': String(video.size),
        'x-upload-content-type': video.contentType,
      },
      body: JSON.stringify(options.metadata),
      signal: options.signal,
    },
    'the upload',
  );
  if (!response.ok) throw await failure(response, 'the upload');
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (!location)
    throw new PlatformError('platform_unavailable', 'YouTube started no upload session (no Location header)');
  return new URL(location, url).toString();
}

async function putChunk(
  options: UploadOptions,
  sessionUrl: string,
  start: number,
  end: number,
): Promise<Progress> {
  const bytes = await readRange(options.video, start, end);
  const response = await googleFetch(
    options.token,
    sessionUrl,
    {
      method: 'PUT',
      headers: {
        'content-type': options.video.contentType,
        'content-range': `bytes ${start}-${end}/${options.video.size}`,
      },
      body: bytes,
      signal: options.signal,
      timeoutMs: chunkTimeoutMs(bytes.length),
    },
    'the upload',
  );
  return progressOf(response);
}

/** `PUT` with `Content-Range: bytes *\/total` and no body: how many bytes the session holds. */
async function queryStatus(options: UploadOptions, sessionUrl: string): Promise<Progress> {
  const response = await googleFetch(
    options.token,
    sessionUrl,
    {
      method: 'PUT',
      headers: { 'content-range': `bytes */${options.video.size}` },
      body: '',
      signal: options.signal,
    },
    'the upload',
  );
  return progressOf(response);
}

/** A session that is gone (expired after a week, or never existed) means starting over. */
async function queryOrNull(options: UploadOptions, sessionUrl: string): Promise<Progress | null> {
  try {
    return await queryStatus(options, sessionUrl);
  } catch (error) {
    if (error instanceof PlatformError && isSessionGone(error)) return null;
    throw error;
  }
}

function isSessionGone(error: PlatformError): boolean {
  return error.status === 404 || error.status === 410;
}

async function progressOf(response: Response): Promise<Progress> {
  if (response.status === 308) {
    await response.body?.cancel();
    // `Range: bytes=0-n` says bytes 0..n are stored; no Range header means none are.
    const range = response.headers.get('range')?.match(/^bytes=0-(\d+)$/);
    return { next: range ? Number(range[1]) + 1 : 0 };
  }
  if (response.ok) {
    const video = (await readJson(response)) as UploadedVideo | undefined;
    if (!video?.id)
      throw new PlatformError('internal', 'YouTube finished the upload but returned no video id');
    return { done: video };
  }
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel();
    // The session expired: the next attempt starts a new one.
    throw new PlatformError('platform_unavailable', 'The YouTube upload session expired; starting over', {
      status: response.status,
    });
  }
  throw await failure(response, 'the upload');
}

async function readRange(video: MediaFile, start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await video.stream({ start, end }))
      chunks.push(Buffer.from(chunk as Uint8Array));
  } catch (error) {
    throw new PlatformError('media_unavailable', `Could not read ${video.filename} from storage`, {
      cause: error,
      retryable: true,
    });
  }
  const bytes = new Uint8Array(Buffer.concat(chunks));
  if (bytes.length !== end - start + 1) {
    throw new PlatformError('media_unavailable', `${video.filename} is shorter than its stored size`, {
      retryable: false,
    });
  }
  return bytes;
}
