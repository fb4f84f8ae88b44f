/** Media uploads from the browser: presign + direct PUT with progress, server upload as fallback. */

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
    xhr.onerror = () => reject(new Error('The upload was interrupted. Check your connection and try again.'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
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
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      if (error instanceof Error && !/interrupted/.test(error.message)) throw error;
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
