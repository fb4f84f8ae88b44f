/**
 * Media uploads from the browser: presign + direct PUT with progress, server upload as fallback.
 * A fallback is never silent: `onNotice` says why the direct upload did not happen (most often a
 * page opened at another origin than APP_URL, whose PUT the browser blocks by CORS).
 */

import type { MediaObject, PresignResponse } from '@postwave/shared';

export type { MediaObject };

function send(
  method: string,
  url: string,
  body: Blob | FormData,
  headers: Record<string, string>,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) {
      // The browser sets Content-Length itself.
      if (name.toLowerCase() !== 'content-length') xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new UploadNetworkError());
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** The browser gave no answer: offline, or a cross-origin request CORS refused (indistinguishable to scripts). */
class UploadNetworkError extends Error {
  override name = 'UploadNetworkError';
  constructor() {
    super('The upload was interrupted. Check your connection and try again.');
  }
}

/** Why the direct upload to `uploadUrl` failed, in words for the user. */
function directUploadFailure(uploadUrl: string, filename: string, status?: number): string {
  const target = new URL(uploadUrl, window.location.href).origin;
  const here = window.location.origin;
  if (status !== undefined)
    return `The direct upload of ${filename} was refused (HTTP ${status}), so it is being uploaded through the server instead.`;
  if (target !== here)
    return `The browser blocked the direct upload of ${filename} to ${target} (CORS): this page is open at ${here}. It is being uploaded through the server instead, which is slower. Open the app at ${target}, or set APP_URL to the address you use.`;
  return `The direct upload of ${filename} was interrupted, so it is being uploaded through the server instead.`;
}

function problemMessage(text: string, fallback: string): string {
  try {
    const body = JSON.parse(text) as { detail?: string; title?: string };
    return body.detail ?? body.title ?? fallback;
  } catch {
    return fallback;
  }
}

/** Uploads one file, reporting progress from 0 to 1; resolves to the stored media object. */
export async function uploadFile(
  file: File,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
  /** Told when the direct upload could not be used and the server upload takes over. */
  onNotice: (message: string) => void = () => {},
): Promise<MediaObject> {
  let presigned: PresignResponse | undefined;
  if (file.type) {
    const response = await fetch('/api/v1/upload/presign', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: file.name, contentType: file.type, size: file.size }),
      signal,
    });
    if (response.ok) presigned = (await response.json()) as PresignResponse;
    else if (response.status === 413 || response.status === 415) {
      throw new Error(problemMessage(await response.text(), 'This file cannot be uploaded.'));
    } else if (response.status !== 501) {
      // 501: this server has no direct uploads; anything else is a failure worth saying.
      onNotice(
        `A direct upload of ${file.name} could not be prepared (HTTP ${response.status}), so it is being uploaded through the server instead.`,
      );
    }
  }
  if (presigned) {
    try {
      const put = await send(
        presigned.method || 'PUT',
        presigned.uploadUrl,
        file,
        presigned.headers ?? { 'Content-Type': file.type },
        onProgress,
        signal,
      );
      if (put.status >= 200 && put.status < 300) return presigned.media;
      if (put.status === 413 || put.status === 415) {
        throw new Error(problemMessage(put.text, 'This file cannot be uploaded.'));
      }
      onNotice(directUploadFailure(presigned.uploadUrl, file.name, put.status));
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      if (!(error instanceof UploadNetworkError)) throw error;
      onNotice(directUploadFailure(presigned.uploadUrl, file.name));
    }
  }
  // Fallback: stream through the server.
  onProgress(0);
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await send('POST', '/api/v1/upload', form, {}, onProgress, signal);
  if (response.status !== 201 && response.status !== 200) {
    throw new Error(problemMessage(response.text, `The upload failed (${response.status}).`));
  }
  return (JSON.parse(response.text) as { media: MediaObject }).media;
}
