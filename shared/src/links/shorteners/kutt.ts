import {
  baseUrl,
  clip,
  countField,
  record,
  type Shortener,
  type ShortenerClientOptions,
  type ShortenerSettings,
  shortenerRequest,
  stringField,
} from './client.ts';

/**
 * Kutt's API v2 (https://docs.kutt.it): `X-API-KEY` on every request; `POST /api/v2/links`
 * `{ target, domain? }` → `{ id, link, visit_count, … }`; `GET /api/v2/links/{id}/stats` →
 * `{ …link, visit_count, lastDay, … }`. Errors: `{ error }`.
 */
export function kuttShortener(settings: ShortenerSettings, options: ShortenerClientOptions): Shortener {
  const root = `${baseUrl(settings.apiUrl)}/api/v2/links`;
  const headers = { 'X-API-KEY': settings.apiKey };
  const describe = (body: unknown) => clip(record(body).error);
  return {
    provider: 'kutt',
    async shorten(longUrl, signal) {
      const body = await shortenerRequest(
        options,
        root,
        {
          method: 'POST',
          headers,
          body: { target: longUrl, ...(settings.domain ? { domain: settings.domain } : {}) },
          signal,
        },
        describe,
      );
      return { shortUrl: stringField(body, 'link'), ref: stringField(body, 'id') };
    },
    async clicks(ref, signal) {
      const body = await shortenerRequest(
        options,
        `${root}/${encodeURIComponent(ref)}/stats`,
        { method: 'GET', headers, signal },
        describe,
      );
      return countField(record(body).visit_count);
    },
  };
}
