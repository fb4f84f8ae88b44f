import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * A real video made by the machine's ffmpeg (a test pattern): `mp4` (H.264, its index at the end,
 * as most cameras write it), `webm` (VP9) or `ts` (an MPEG transport stream, as HLS segments are).
 */
export function videoOf(
  format: 'mp4' | 'webm' | 'ts',
  seconds: number,
  size = '320x180',
  /** Degrees a player turns it by (an MP4's display matrix, as phones record portrait video). */
  rotate?: number,
): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'postwave-video-'));
  try {
    const file = join(dir, `clip.${format}`);
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=${size}:rate=10:duration=${seconds}`,
      ...(format === 'webm' ? ['-c:v', 'libvpx-vp9'] : ['-pix_fmt', 'yuv420p', '-c:v', 'libx264']),
      file,
    ]);
    if (rotate === undefined) return readFileSync(file);
    const turned = join(dir, `turned.${format}`);
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-v',
      'error',
      '-i',
      file,
      '-c',
      'copy',
      '-metadata:s:v:0',
      `rotate=${rotate}`,
      turned,
    ]);
    return readFileSync(turned);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
