import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { samplePng } from '@postwave/shared/testing';
import { dispatchSecret, type RunningApp } from '../../helpers/app.ts';
import type { Client } from '../../helpers/client.ts';

/** A loopback HTTP service that is not in ALLOW_PRIVATE_HOSTS, counting what reaches it. */
export interface InternalService {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

export async function internalService(): Promise<InternalService> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"secret":"internal"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Schedules a post a moment ahead, waits until it is due, dispatches and returns the stored post. */
export async function scheduleAndDispatch(app: RunningApp, api: Client, post: Record<string, unknown>) {
  const scheduledAt = new Date(Date.now() + 1200).toISOString();
  const created = await api.json('/api/v1/posts', {
    json: { ...post, postingMode: 'schedule', scheduledAt },
  });
  if (created.status !== 201)
    throw new Error(`schedule failed: ${created.status} ${JSON.stringify(created.body)}`);
  await new Promise((resolve) => setTimeout(resolve, 1400));
  const dispatched = await fetch(`${app.url}/api/internal/scheduled-posts/dispatch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dispatchSecret}` },
  });
  if (dispatched.status !== 200) throw new Error(`dispatch failed: ${dispatched.status}`);
  return (await api.json(`/api/v1/posts/${created.body.id}`)).body;
}

/** Uploads a small PNG through the API; answers the media object. */
export async function uploadPng(api: Client): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'cover.png');
  const res = await api.json('/api/v1/upload', { method: 'POST', body: form });
  // 200: the workspace already had these bytes and the media library answers that media (docs/media-library.md).
  assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
  return res.body.media;
}
