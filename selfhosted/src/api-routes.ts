import {
  AccountsResponse,
  composerFieldsNote,
  idempotencyKeyParameter,
  idempotencyProblems,
  isJsonContentType,
  MediaKey,
  notJsonProblem,
  PostRequest,
  PresignRequest,
  PresignResponse,
  PublishResponse,
  UploadResponse,
  ValidationRequest,
  ValidationResponse,
} from '@postwave/shared';
import {
  defineRoutes,
  docsPageRoutes,
  expressPath,
  operationsRoutes,
  problemResponses,
  type RouteSpec,
  takesJsonOnly,
} from '@postwave/shared/openapi/index';
import type { RequestHandler, Router } from 'express';

/** `apiKey`: the `x-api-key` header must equal SERVICE_API_KEY; `public`: no credential. */
export type ApiAuth = 'apiKey' | 'public';

export interface RouteNotes {
  maxUploadBytes: number;
  /** Platform ids whose options schemas are components named `<Pascal>Options`. */
  platformIds: readonly string[];
}

/** The limit on JSON request bodies (`express.json`); /openapi.json lists its 413 on every JSON operation. */
export const maxJsonBodyBytes = 2 * 1024 * 1024;

const unauthorized = { unauthorized: 'the `x-api-key` header is missing or wrong' } as const;
/** A JSON body is UTF-8: another declared charset is refused as not JSON (`isJsonContentType`). */
const jsonCharset = 'the JSON body declares a charset other than UTF-8 (e.g. `iso-8859-1`)';
const jsonTooLarge = `the JSON body is over ${maxJsonBodyBytes / 1024 / 1024} MiB; it was not read`;
const internal = { internal: 'an unexpected failure; the body never carries details, the logs do' } as const;
const requestIdHeader = {
  'x-request-id': {
    description: 'Echoes a sane incoming `x-request-id`, or a generated one; it is in every log line.',
  },
};

/**
 * Every route of the self-hosted server, declared once: `app.ts` wires each handler from its entry
 * (method, path, auth) and `/openapi.json` lists the same entries.
 */
export function apiRoutes({ maxUploadBytes, platformIds }: RouteNotes) {
  const optionsList = platformIds.length
    ? platformIds
        .map((id) => `\`${id}\`: [${pascal(id)}Options](#/components/schemas/${pascal(id)}Options)`)
        .join(', ')
    : 'none registered';
  const accountOptionsNote =
    '`accountOptions` maps an account id to that platform’s options ' +
    `(${optionsList}); they are merged over the \`options\` of the account’s entry in the accounts file, ` +
    'key by key, and checked against the platform’s options schema.';
  return defineRoutes({
    ...docsPageRoutes<ApiAuth>('public'),
    ...operationsRoutes<ApiAuth>('public', {
      checks: 'media storage answers (`storage`) and it is not shutting down (`shutdown`)',
      metrics:
        '`postwave_publish_total{platform,outcome}` (`posted`, `failed`, `unknown`), ' +
        '`postwave_publish_duration_seconds{platform}` (histogram)',
      tags: ['Service'],
    }),

    listAccounts: {
      method: 'get',
      path: '/api/v1/accounts',
      auth: 'apiKey',
      operationId: 'listAccounts',
      summary: 'List the accounts of the accounts file',
      description: 'Without credentials. An empty list when no accounts file is configured.',
      tags: ['Accounts'],
      responses: {
        200: {
          description: 'The accounts.',
          headers: requestIdHeader,
          content: { 'application/json': AccountsResponse },
        },
        ...problemResponses({ ...unauthorized, ...internal }),
      },
    },

    uploadMedia: {
      method: 'post',
      path: '/api/v1/upload',
      auth: 'apiKey',
      operationId: 'uploadMedia',
      summary: 'Upload a media file',
      description: [
        'One file in the multipart field `file`, streamed to storage (never buffered whole).',
        'The type is sniffed from the bytes: a declared part type that disagrees, or a type no platform accepts',
        '(anything but JPEG, PNG, GIF, WebP, MP4, QuickTime, WebM and PDF), is 415.',
        `Files over \`MAX_UPLOAD_BYTES\` (here ${maxUploadBytes} bytes) are 413 and nothing is kept.`,
        'With object storage configured the file goes to the bucket; otherwise to local disk, served at `/media/{key}`.',
      ].join(' '),
      tags: ['Media'],
      requestBody: {
        content: {
          'multipart/form-data': {
            type: 'object',
            properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
            required: ['file'],
          },
        },
      },
      responses: {
        201: { description: 'Stored.', content: { 'application/json': UploadResponse } },
        ...problemResponses({
          invalid_request: 'no file in the field `file`, more than one file, or a malformed multipart body',
          ...unauthorized,
          payload_too_large: 'the file is over `MAX_UPLOAD_BYTES`; nothing was stored',
          unsupported_media_type:
            'the body is not `multipart/form-data`, or the bytes are not an accepted type or disagree with the declared type',
          ...internal,
        }),
      },
    },

    presignUpload: {
      method: 'post',
      path: '/api/v1/upload/presign',
      auth: 'apiKey',
      operationId: 'presignUpload',
      summary: 'Get a direct upload URL',
      description: [
        'The URL is bound to a key derived from `filename`, to `contentType` and to `size`, and is valid 15 minutes.',
        'PUT exactly those bytes with the returned headers, then pass the returned `media` to validation or posting.',
        'With object storage configured it is an S3 presigned URL (browsers need a bucket CORS rule allowing PUT and',
        'the Content-Type header from their origin); otherwise it points at `PUT /media/{key}` on this server,',
        'signed with an HMAC over key, type, size and expiry.',
      ].join(' '),
      tags: ['Media'],
      requestBody: { content: { 'application/json': PresignRequest } },
      responses: {
        201: { description: 'Upload URL issued.', content: { 'application/json': PresignResponse } },
        ...problemResponses({
          invalid_request: 'the body is malformed',
          ...unauthorized,
          payload_too_large: `\`size\` is over \`MAX_UPLOAD_BYTES\`, or ${jsonTooLarge}`,
          unsupported_media_type: `\`contentType\` is not an accepted media type, or ${jsonCharset}`,
          ...internal,
        }),
      },
    },

    validatePost: {
      method: 'post',
      path: '/api/v1/validation',
      auth: 'apiKey',
      operationId: 'validatePost',
      summary: 'Validate a post against its accounts',
      description: [
        'Runs every check publishing would, without publishing: text length as each platform counts it,',
        'media count, types and sizes, required media and option schemas. An invalid post is still 200, with',
        '`valid: false` and per-account errors; so is a request that breaks a rule of its own (no accounts or more',
        'than 100, a text over 100,000 characters, more than 50 media, a malformed media key, an override for an',
        'account not in `accountIds`), with those issues in the top-level `errors` and no per-account results.',
        'Only a malformed body (invalid JSON, a field missing or of the wrong type) is 400.',
        'Unknown account ids are `account_not_found`; with no accounts file',
        'every account is `accounts_not_configured`. Media is resolved by `key` in this server’s storage:',
        '`url`, `size` and `contentType` sent back by the client are ignored.',
        accountOptionsNote,
        composerFieldsNote,
      ].join(' '),
      tags: ['Publishing'],
      requestBody: { content: { 'application/json': ValidationRequest } },
      bodyRuleBreaks: 'result',
      responses: {
        200: { description: 'Validation result.', content: { 'application/json': ValidationResponse } },
        ...problemResponses({
          invalid_request: 'malformed JSON or wrong field types',
          ...unauthorized,
          payload_too_large: jsonTooLarge,
          unsupported_media_type: jsonCharset,
          ...internal,
        }),
      },
    },

    publishPost: {
      method: 'post',
      path: '/api/v1/posts',
      auth: 'apiKey',
      operationId: 'publishPost',
      summary: 'Publish a post now',
      description: [
        'Only `postingMode: "now"` is supported here; `"schedule"`, `"queue"` and `"draft"` need the Postwave Scheduler (501).',
        'The whole post is validated first: if any account is invalid the answer is 422 with per-account errors and',
        'nothing is published anywhere. Targets are then published concurrently; transient platform failures',
        '(timeouts, 5xx, 429) are retried with backoff within `PUBLISH_TIMEOUT_MS`, permanent ones are not.',
        '200 when every target posted, 207 with `status: "partial"` when some failed, 502 when all failed.',
        accountOptionsNote,
        composerFieldsNote,
        'Here a failed part is final for that request: this server keeps no post to retry, so resend only what is',
        'missing (the Scheduler’s `POST /api/v1/posts/{id}` continues a thread from its failed part).',
        '\n\n**Idempotency-Key**: see the header below (the same protocol as the Scheduler).',
        '\n\n**Webhook**: with `SERVICE_WEBHOOK_URL` set, each publish also sends `post.published`,',
        '`post.partially_published` or `post.failed` there, signed as Standard Webhooks with',
        '`SERVICE_WEBHOOK_SECRET` (best effort: retries live in memory).',
      ].join(' '),
      tags: ['Publishing'],
      parameters: [
        idempotencyKeyParameter(
          'the API key',
          'Keys live in this process’s memory (at most `IDEMPOTENCY_MAX_ENTRIES` answers, least recently used dropped first); a restart forgets them.',
        ),
      ],
      requestBody: { content: { 'application/json': PostRequest } },
      responses: {
        200: { description: 'Every target posted.', content: { 'application/json': PublishResponse } },
        207: {
          description: 'Some targets posted, some failed (`status: "partial"`); see each result.',
          content: { 'application/json': PublishResponse },
        },
        ...problemResponses({
          invalid_request: 'malformed JSON, wrong field types, or a malformed Idempotency-Key',
          ...unauthorized,
          validation_failed:
            'an unknown `postingMode`, or a target that fails validation (`errors` name the account); nothing was published',
          payload_too_large: jsonTooLarge,
          unsupported_media_type: jsonCharset,
          ...idempotencyProblems,
          not_supported: '`postingMode` `schedule`, `queue` or `draft`: use the Postwave Scheduler',
          publish_failed: 'every target failed; `results` says why for each',
          ...internal,
          unavailable:
            'the server is shutting down; nothing was published (`Retry-After` says when to send it again)',
        }),
      },
    },

    getMedia: mediaGet('get'),
    headMedia: mediaGet('head'),

    putSignedUpload: {
      method: 'put',
      path: '/media/{key}',
      auth: 'public',
      operationId: 'putSignedUpload',
      summary: 'Receive a self-signed upload (local storage)',
      description:
        'The `uploadUrl` a presign returns when no object storage is configured. The signature in the query is the ' +
        'credential (no API key). Accepts one PUT of exactly the signed bytes with the signed Content-Type before ' +
        'expiry; anything else is refused and nothing is stored.',
      tags: ['Media'],
      parameters: [
        keyParameter,
        ...['type', 'size', 'expires', 'signature'].map((name) => ({
          name,
          in: 'query' as const,
          required: true,
          description: 'Copied from the presign `uploadUrl`.',
          schema: { type: 'string' },
        })),
      ],
      requestBody: { content: { '*/*': { type: 'string', contentMediaType: 'application/octet-stream' } } },
      responses: {
        201: { description: 'Stored.', content: { 'application/json': UploadResponse } },
        ...problemResponses({
          invalid_request: 'the body is not exactly the signed size',
          forbidden: 'the signature does not verify, or the URL has expired',
          not_found: 'not a valid key, or uploads go to object storage on this server',
          invalid_status: 'the URL was already used',
          unsupported_media_type: 'the Content-Type or the bytes are not the signed type',
          ...internal,
        }),
      },
    },

    getOpenApi: {
      method: 'get',
      path: '/openapi.json',
      auth: 'public',
      operationId: 'getOpenApi',
      summary: 'This OpenAPI description',
      description: 'No authentication. An interactive rendering is served at `/docs`.',
      tags: ['Service'],
      responses: {
        200: { description: 'OpenAPI 3.1 document.', content: { 'application/json': { type: 'object' } } },
      },
    },
  } satisfies Record<string, RouteSpec<ApiAuth>>);
}

export type ApiRoutes = ReturnType<typeof apiRoutes>;

/** Mounts handlers on the method and path the route declares. */
export function on(router: Router, route: RouteSpec<ApiAuth>, ...handlers: RequestHandler[]): void {
  const guards = takesJsonOnly(route) ? [requireJsonBody] : [];
  router[route.method](expressPath(route.path), ...guards, ...handlers);
}

/**
 * 415 for a body under another type than JSON on a route that takes JSON only: express.json leaves
 * such a body unread, and the schema would then report a missing object (400) instead.
 */
const requireJsonBody: RequestHandler = (req, _res, next) => {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;
  next(hasBody && !isJsonContentType(req.headers['content-type']) ? notJsonProblem() : undefined);
};

const keyParameter = {
  name: 'key',
  in: 'path' as const,
  description: 'The media key from the media object. Anything else (`..`, slashes, encoded or not) is 404.',
  schema: MediaKey,
};
const mediaGet = (method: 'get' | 'head'): RouteSpec<ApiAuth> => ({
  method,
  path: '/media/{key}',
  auth: 'public',
  operationId: method === 'get' ? 'getMedia' : 'headMedia',
  summary: method === 'get' ? 'Download a stored media file' : 'Media file metadata',
  description:
    'No authentication: keys are unguessable. Supports a single byte `Range`, `ETag` / `If-None-Match` and ' +
    '`Last-Modified` / `If-Modified-Since` (304); files never change, so they are cacheable for a year.',
  tags: ['Media'],
  parameters: [
    keyParameter,
    {
      name: 'Range',
      in: 'header',
      description: 'One range, e.g. `bytes=0-1023`.',
      schema: { type: 'string' },
    },
  ],
  responses: {
    200: {
      description: 'The file.',
      content: { '*/*': { type: 'string', contentMediaType: 'application/octet-stream' } },
    },
    206: { description: 'The requested range.' },
    304: { description: 'Not modified.' },
    ...problemResponses({ not_found: 'no media with this key' }),
    416: { description: 'The range is outside the file.' },
  },
});

export function pascal(id: string): string {
  return id.replace(/(^|[-_])([a-z0-9])/g, (_, _sep, c: string) => c.toUpperCase());
}
