import type { FakeResponse } from './fake-server.ts';

/** Helpers shared by the Facebook and Instagram fakes: Graph's error body, usage headers, media fetching. */

export function graphErrorResponse(
  status: number,
  error: { message: string; type?: string; code: number; error_subcode?: number },
  headers: Record<string, string> = {},
): FakeResponse {
  return {
    status,
    headers,
    json: {
      error: {
        message: error.message,
        type: error.type ?? 'OAuthException',
        code: error.code,
        ...(error.error_subcode === undefined ? {} : { error_subcode: error.error_subcode }),
        fbtrace_id: `A${Math.random().toString(36).slice(2, 12)}`,
      },
    },
  };
}

/** `X-App-Usage` and `X-Business-Use-Case-Usage` as Graph sends them on every answer. */
export function usageHeaders(
  id: string,
  type: 'pages' | 'instagram',
  percent: number,
  regainMinutes = 0,
): Record<string, string> {
  return {
    'x-app-usage': JSON.stringify({
      call_count: percent,
      total_cputime: Math.floor(percent / 2),
      total_time: percent,
    }),
    'x-business-use-case-usage': JSON.stringify({
      [id]: [
        {
          type,
          call_count: percent,
          total_cputime: Math.floor(percent / 2),
          total_time: percent,
          estimated_time_to_regain_access: regainMinutes,
        },
      ],
    }),
  };
}

export interface FetchedMedia {
  url: string;
  contentType: string;
  bytes: Buffer;
}

/** What Meta does with `url` / `image_url` / `video_url`: fetch it from the internet. */
export async function fetchMedia(url: string): Promise<FetchedMedia | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return undefined;
    const bytes = Buffer.from(await response.arrayBuffer());
    return { url, contentType: sniff(bytes) ?? response.headers.get('content-type') ?? '', bytes };
  } catch {
    return undefined;
  }
}

export function sniff(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return 'image/png';
  if (bytes.subarray(0, 3).toString('latin1') === 'GIF') return 'image/gif';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  if (bytes.subarray(4, 8).toString('latin1') === 'ftyp') return 'video/mp4';
  return undefined;
}
