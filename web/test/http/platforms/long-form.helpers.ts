import assert from 'node:assert/strict';
import { samplePng } from '@postwave/shared/testing';
import { dispatchSecret, type RunningApp } from '../../helpers/app.ts';
import type { Client } from '../../helpers/client.ts';

/** Uploads a small PNG through the API; answers the media object. */
export async function uploadPng(api: Client): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'cover.png');
  const res = await api.json('/api/v1/upload', { method: 'POST', body: form });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.media;
}

/**
 * Schedules a post a moment ahead, waits for it to be due, runs the dispatch endpoint, and answers
 * the post as the API then shows it.
 */
export async function scheduleAndDispatch(
  app: RunningApp,
  api: Client,
  post: Record<string, unknown>,
): Promise<Record<string, unknown> & { status: string }> {
  const scheduledAt = new Date(Date.now() + 1500).toISOString();
  const created = await api.json('/api/v1/posts', {
    json: { ...post, postingMode: 'schedule', scheduledAt },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.status, 'scheduled');
  await new Promise((resolve) => setTimeout(resolve, 1700));
  const dispatched = await fetch(`${app.url}/api/internal/scheduled-posts/dispatch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dispatchSecret}` },
  });
  assert.equal(dispatched.status, 200);
  return (await api.json(`/api/v1/posts/${created.body.id}`)).body;
}
