import type { FakeResponse } from './fake-server.ts';

/**
 * Helpers shared by the Meta fakes (Facebook, Instagram, Threads): Graph's error body, the token
 * checks every Graph call makes, usage headers, media fetching; and the single-use authorization
 * codes every OAuth fake (X's too) issues and redeems.
 */

export interface GraphErrorFields {
  message: string;
  type?: string;
  code: number;
  error_subcode?: number | undefined;
  is_transient?: boolean;
  error_user_msg?: string;
}

export function graphErrorResponse(
  status: number,
  error: GraphErrorFields,
  headers: Record<string, string> = {},
): FakeResponse {
  const { message, type, code, ...rest } = error;
  const extra = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  return {
    status,
    headers,
    json: {
      error: {
        message,
        type: type ?? 'OAuthException',
        code,
        ...extra,
        fbtrace_id: `A${Math.random().toString(36).slice(2, 12)}`,
      },
    },
  };
}

/**
 * What Graph answers for an access token it cannot use (code 190): unknown, invalidated (with the
 * platform's subcode and wording), or expired (463). Undefined: the token works.
 */
export function graphTokenProblem(
  token: { valid?: boolean; expiresAt: number } | undefined,
  invalidated: { message: string; subcode: number } = {
    message: 'Error validating access token: The user has not authorized application.',
    subcode: 458,
  },
): FakeResponse | undefined {
  if (!token)
    return graphErrorResponse(400, {
      message: 'Invalid OAuth access token - Cannot parse access token',
      code: 190,
    });
  if (token.valid === false)
    return graphErrorResponse(400, {
      message: invalidated.message,
      code: 190,
      error_subcode: invalidated.subcode,
    });
  if (token.expiresAt <= Date.now()) {
    return graphErrorResponse(400, {
      message: 'Error validating access token: Session has expired.',
      code: 190,
      error_subcode: 463,
    });
  }
  return undefined;
}

/** Graph's answer for an object id that does not exist or is not the caller's to use (code 100, subcode 33). */
export function graphUnknownObject(id: string, method: 'get' | 'post'): FakeResponse {
  return graphErrorResponse(400, {
    message: `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    type: 'GraphMethodException',
    code: 100,
    error_subcode: 33,
  });
}

/** Why a code was not redeemed; each fake answers it in its platform's words. */
export type CodeProblem = 'unknown' | 'used' | 'expired' | 'redirect_mismatch';

/**
 * Authorization codes as OAuth servers keep them: single-use (spent by the first redemption,
 * even one with the wrong redirect URI), optionally expiring, bound to their redirect URI.
 */
export class AuthorizationCodes<Grant extends { redirectUri: string; expiresAt?: number }> {
  readonly #codes = new Map<string, Grant & { used: boolean }>();

  issue(code: string, grant: Grant): string {
    this.#codes.set(code, { ...grant, used: false });
    return code;
  }

  redeem(
    code: string | null | undefined,
    redirectUri: string | null | undefined,
  ): { grant: Grant } | { problem: CodeProblem } {
    const issued = code ? this.#codes.get(code) : undefined;
    if (!issued) return { problem: 'unknown' };
    if (issued.used) return { problem: 'used' };
    if (issued.expiresAt !== undefined && issued.expiresAt < Date.now()) return { problem: 'expired' };
    issued.used = true;
    if (redirectUri !== issued.redirectUri) return { problem: 'redirect_mismatch' };
    return { grant: issued };
  }
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

/**
 * A Graph insights answer (`GET /{media}/insights?metric=…`): one entry per metric asked for,
 * lifetime values in `values[0].value`, as Threads and Instagram answer media insights. A metric
 * the object does not offer is refused whole, as Graph does (code 100).
 */
export function mediaInsightsAnswer(
  id: string,
  asked: string | null,
  offered: Readonly<Record<string, number>>,
): FakeResponse {
  const names = (asked ?? '').split(',').filter(Boolean);
  if (names.length === 0)
    return graphErrorResponse(400, { message: '(#100) The parameter metric is required', code: 100 });
  const unknown = names.find((n) => !(n in offered));
  if (unknown)
    return graphErrorResponse(400, {
      message: `(#100) metric[0] must be one of the following values: ${Object.keys(offered).join(', ')}`,
      code: 100,
    });
  return {
    json: {
      data: names.map((name) => ({
        name,
        period: 'lifetime',
        values: [{ value: offered[name] }],
        title: name,
        description: `The ${name} of the media.`,
        id: `${id}/insights/${name}/lifetime`,
      })),
    },
  };
}
