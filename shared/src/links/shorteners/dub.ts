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

/** Dub's hosted API; a self-hosted Dub names its own in `apiUrl`. */
export const dubDefaultApiUrl = 'https://api.dub.co';

/**
 * Dub's REST API (https://dub.co/docs/api-reference): `Authorization: Bearer dub_…`;
 * `POST /links` `{ url, domain? }` → `{ id, shortLink, clicks, … }`; `GET /links/info?linkId=` →
 * the link with its `clicks`. Errors: `{ error: { code, message, doc_url } }`.
 */
export function dubShortener(settings: ShortenerSettings, options: ShortenerClientOptions): Shortener {
  const root = baseUrl(settings.apiUrl || dubDefaultApiUrl);
  const headers = { authorization: `Bearer ${settings.apiKey}` };
  const describe = (body: unknown) => clip(record(record(body).error).message);
  return {
    provider: 'dub',
    async shorten(longUrl, signal) {
      const body = await shortenerRequest(
        options,
        `${root}/links`,
        {
          method: 'POST',
          headers,
          body: { url: longUrl, ...(settings.domain ? { domain: settings.domain } : {}) },
          signal,
        },
        describe,
      );
      return { shortUrl: stringField(body, 'shortLink'), ref: stringField(body, 'id') };
    },
    async clicks(ref, signal) {
      const body = await shortenerRequest(
        options,
        `${root}/links/info?linkId=${encodeURIComponent(ref)}`,
        { method: 'GET', headers, signal },
        describe,
      );
      return countField(record(body).clicks);
    },
  };
}
