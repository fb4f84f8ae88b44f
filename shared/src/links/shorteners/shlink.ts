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
 * Shlink's REST API v3 (https://shlink.io/documentation/api-docs/): `X-Api-Key` on every request;
 * `POST /rest/v3/short-urls` `{ longUrl, domain?, findIfExists: false }` → `{ shortUrl, shortCode, … }`;
 * `GET /rest/v3/short-urls/{shortCode}?domain=` → `{ visitsSummary: { total, … } }`. Errors are
 * problem+json: `{ type, title, detail, status }`.
 */
export function shlinkShortener(settings: ShortenerSettings, options: ShortenerClientOptions): Shortener {
  const root = `${baseUrl(settings.apiUrl)}/rest/v3/short-urls`;
  const headers = { 'X-Api-Key': settings.apiKey };
  const describe = (body: unknown) => clip(record(body).detail) ?? clip(record(body).title);
  return {
    provider: 'shlink',
    async shorten(longUrl, signal) {
      const body = await shortenerRequest(
        options,
        root,
        {
          method: 'POST',
          headers,
          // Never an existing short code: two accounts posting the same long URL (one that already
          // carries its utm_source) must get a short link each, or their clicks would mix.
          body: { longUrl, findIfExists: false, ...(settings.domain ? { domain: settings.domain } : {}) },
          signal,
        },
        describe,
      );
      return { shortUrl: stringField(body, 'shortUrl'), ref: stringField(body, 'shortCode') };
    },
    async clicks(ref, signal) {
      const query = settings.domain ? `?domain=${encodeURIComponent(settings.domain)}` : '';
      const body = await shortenerRequest(
        options,
        `${root}/${encodeURIComponent(ref)}${query}`,
        { method: 'GET', headers, signal },
        describe,
      );
      return countField(record(record(body).visitsSummary).total);
    },
  };
}
