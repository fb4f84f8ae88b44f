import sharp from 'sharp';
import type { Client } from './client.ts';

/** A real PNG of the given size; different `red` values are different bytes. */
export async function pngOf(width: number, height: number, red: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: red, g: 120, b: 40 } } })
    .png()
    .toBuffer();
}

/** `POST /api/v1/upload` of one file, as a browser sends it. */
export async function upload(api: Client, bytes: Buffer, name: string, type: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return api.json('/api/v1/upload', { method: 'POST', body: form });
}
