import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';

/**
 * Google's error body: `{ error: { code, message, status, details: [...] } }`, where details
 * may hold `google.rpc.ErrorInfo` (`reason`) and, for local posts, a
 * `google.mybusiness.v4.ValidationError` with `errorDetails: [{ code, field, message }]`.
 */
interface GoogleError {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    details?: { '@type'?: string; reason?: string; errorDetails?: { field?: string; message?: string }[] }[];
  };
}

export function googleBusinessError(
  status: number,
  body: unknown,
  headers: Headers,
  what: string,
): PlatformError {
  const error = (body as GoogleError | undefined)?.error ?? {};
  const reasons = (error.details ?? []).map((d) => d.reason).filter(Boolean);
  const fields = (error.details ?? []).flatMap((d) => d.errorDetails ?? []);
  const detail = [
    typeof error.message === 'string' ? error.message.slice(0, 300) : '',
    ...fields.slice(0, 3).map((f) => `${f.field ?? ''}: ${f.message ?? ''}`.slice(0, 200)),
  ]
    .filter(Boolean)
    .join('; ');
  const said = detail ? `: ${detail}` : '';
  const init = { status };
  if (status === 429 || error.status === 'RESOURCE_EXHAUSTED')
    return new PlatformError(
      'rate_limited',
      `Google Business Profile rate limit reached during ${what}${said}`,
      {
        ...init,
        retryAfterMs: parseRetryAfter(headers.get('retry-after')),
      },
    );
  if (status === 401)
    return new PlatformError('needs_reconnect', `Google refused the access token${said}; reconnect`, init);
  if (reasons.includes('ACCESS_TOKEN_SCOPE_INSUFFICIENT'))
    return new PlatformError(
      'needs_reconnect',
      'The Google sign-in lacks the business.manage permission; reconnect',
      init,
    );
  if (status === 403 || status === 404 || error.status === 'FAILED_PRECONDITION')
    return new PlatformError('target_unreachable', `Google Business Profile refused ${what}${said}`, init);
  if (status === 400 && fields.some((f) => /media|photo/i.test(f.field ?? '')))
    return new PlatformError('media_rejected', `Google Business Profile refused the photo${said}`, init);
  if (status === 400)
    return new PlatformError('content_rejected', `Google Business Profile rejected ${what}${said}`, init);
  if (status >= 500)
    return new PlatformError(
      'platform_unavailable',
      `Google Business Profile is unavailable (HTTP ${status})`,
      init,
    );
  return new PlatformError(
    'internal',
    `Google Business Profile answered HTTP ${status} to ${what}${said}`,
    init,
  );
}
