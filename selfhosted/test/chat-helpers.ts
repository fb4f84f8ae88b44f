import assert from 'node:assert/strict';
import { samplePng } from '@postwave/shared/testing';
import type { TestServer } from './helpers.ts';

/** One target's result in a publish answer. */
export interface Result {
  accountId: string;
  status: string;
  platformPostId?: string;
  url?: string;
  error?: { code: string; message: string; retryable: boolean };
  parts?: { index: number; status: string; platformPostId?: string }[];
}

/** Uploads the sample PNG and returns its media object. */
export async function uploadPng(
  server: TestServer,
  filename = 'chart.png',
): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), filename);
  const response = await server.api('/api/v1/upload', { method: 'POST', body: form });
  assert.equal(response.status, 201);
  return ((await response.json()) as { media: Record<string, unknown> }).media;
}

/** POST /api/v1/validation; returns the first result's error codes and warning codes. */
export async function validation(
  server: TestServer,
  body: Record<string, unknown>,
): Promise<{ valid: boolean; errors: string[]; warnings: string[] }> {
  const response = await server.api('/api/v1/validation', { json: body });
  assert.equal(response.status, 200);
  const parsed = (await response.json()) as {
    valid: boolean;
    results: { errors: { code: string }[]; warnings: { code: string }[] }[];
  };
  return {
    valid: parsed.valid,
    errors: parsed.results[0]!.errors.map((e) => e.code),
    warnings: parsed.results[0]!.warnings.map((w) => w.code),
  };
}

/** POST /api/v1/posts publishing now; returns the status and the results. */
export async function publishNow(
  server: TestServer,
  body: Record<string, unknown>,
): Promise<{ status: number; results: Result[]; raw: string }> {
  const response = await server.api('/api/v1/posts', { json: { postingMode: 'now', ...body } });
  const raw = await response.text();
  return { status: response.status, results: (JSON.parse(raw) as { results: Result[] }).results, raw };
}
