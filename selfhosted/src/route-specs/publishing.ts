import {
  composerFieldsNote,
  idempotencyKeyParameter,
  idempotencyProblems,
  PostRequest,
  PublishResponse,
  ValidationRequest,
  ValidationResponse,
} from '@postwave/shared';
import {
  problemResponses,
  type RouteSpec,
  storageUnavailable,
  storageUnavailableWhen,
} from '@postwave/shared/openapi/index';
import { type ApiAuth, internal, jsonCharset, jsonTooLarge, pascal, unauthorized } from './common.ts';

/** Checking a post against its accounts, and publishing it now. */
export function publishingRoutes(
  /** Platform ids whose options schemas are components named `<Pascal>Options`. */
  platformIds: readonly string[],
) {
  const optionsList = platformIds.length
    ? platformIds
        .map((id) => `\`${id}\`: [${pascal(id)}Options](#/components/schemas/${pascal(id)}Options)`)
        .join(', ')
    : 'none registered';
  const accountOptionsNote =
    '`accountOptions` maps an account id to that platform’s options ' +
    `(${optionsList}); they are merged over the \`options\` of the account’s entry in the accounts file, ` +
    'key by key, and checked against the platform’s options schema.';
  return {
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
          ...storageUnavailable,
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
          unavailable: `the server is shutting down; nothing was published (\`Retry-After\` says when to send it again). Or ${storageUnavailableWhen} (the post's media are read by key from storage)`,
        }),
      },
    },
  } satisfies Record<string, RouteSpec<ApiAuth>>;
}
