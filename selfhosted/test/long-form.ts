import assert from 'node:assert/strict';
import { samplePng } from '@postwave/shared/testing';
import type { TestServer } from './helpers.ts';

/*
 * The steps the long-form platforms' tests (Medium, Hashnode, Dev.to, Ghost, Listmonk) share:
 * a post refused before anything is sent, a cover image uploaded, a post published now.
 */

export interface ValidationError {
  code: string;
  path?: string;
}

/** Posts `message` now to one account with these options; asserts the 422 and answers its errors. */
export async function refusedPost(
  server: TestServer,
  accountId: string,
  message: string,
  options: Record<string, unknown> = {},
): Promise<ValidationError[]> {
  const response = await server.api('/api/v1/posts', {
    json: { message, accountIds: [accountId], postingMode: 'now', accountOptions: { [accountId]: options } },
  });
  assert.equal(response.status, 422);
  return ((await response.json()) as { errors: ValidationError[] }).errors;
}

/** Uploads the sample PNG under `filename`; answers the media reference a post names. */
export async function uploadSamplePng(server: TestServer, filename: string): Promise<{ url: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), filename);
  const uploaded = await server.api('/api/v1/upload', { method: 'POST', body: form });
  return ((await uploaded.json()) as { media: { url: string } }).media;
}

/** Publishes now to one account; asserts the 200 and answers the target's result. */
export async function publishNow(
  server: TestServer,
  accountId: string,
  post: { message: string; media?: { url: string }[]; options?: Record<string, unknown> },
): Promise<Record<string, unknown>> {
  const response = await server.api('/api/v1/posts', {
    json: {
      message: post.message,
      accountIds: [accountId],
      postingMode: 'now',
      ...(post.media ? { media: post.media } : {}),
      ...(post.options ? { accountOptions: { [accountId]: post.options } } : {}),
    },
  });
  const body = (await response.json()) as { results: Record<string, unknown>[] };
  assert.equal(response.status, 200, JSON.stringify(body));
  return body.results[0]!;
}
