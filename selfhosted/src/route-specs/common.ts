/** `apiKey`: the `x-api-key` header must equal SERVICE_API_KEY; `public`: no credential. */
export type ApiAuth = 'apiKey' | 'public';

/** The limit on JSON request bodies (`express.json`); /openapi.json lists its 413 on every JSON operation. */
export const maxJsonBodyBytes = 2 * 1024 * 1024;

export const unauthorized = { unauthorized: 'the `x-api-key` header is missing or wrong' } as const;
/** A JSON body is UTF-8: another declared charset is refused as not JSON (`isJsonContentType`). */
export const jsonCharset = 'the JSON body declares a charset other than UTF-8 (e.g. `iso-8859-1`)';
export const jsonTooLarge = `the JSON body is over ${maxJsonBodyBytes / 1024 / 1024} MiB; it was not read`;
export const internal = {
  internal: 'an unexpected failure; the body never carries details, the logs do',
} as const;
export const requestIdHeader = {
  'x-request-id': {
    description: 'Echoes a sane incoming `x-request-id`, or a generated one; it is in every log line.',
  },
};

export function pascal(id: string): string {
  return id.replace(/(^|[-_])([a-z0-9])/g, (_, _sep, c: string) => c.toUpperCase());
}
