import {
  AccountOptions,
  idempotencyKeyParameter,
  idempotencyProblems,
  MediaObject,
  PostRequest,
  PresignRequest,
  PresignResponse,
  type PublisherRegistry,
  TargetResult,
  UploadResponse,
  ValidationRequest,
  ValidationResponse,
} from '@postwave/shared';
import { OpenApiDocument, problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { PostActionRequest, PostPatchRequest } from './http/post-fields.ts';

const json = 'application/json';
const unauthorized = {
  unauthorized: 'no session cookie and no valid `Authorization: Bearer` token',
  token_expired:
    'the bearer token has expired (personal tokens at the end of the lifetime chosen at creation, CLI tokens 90 days after their last use); `WWW-Authenticate: Bearer error="invalid_token"`',
} as const;
const notFound = { not_found: 'no such resource for this user (another user’s ids are 404 too)' } as const;

const Account = z
  .object({
    id: z.string(),
    platform: z.string(),
    platformAccountId: z.string(),
    label: z.string().optional(),
    username: z.string().optional(),
    profilePicture: z.string().optional(),
    status: z.enum(['active', 'needs_reconnect']),
    createdAt: z.string(),
  })
  .meta({ id: 'ConnectedAccount', description: 'A connected account. Credentials are never returned.' });

const Post = z
  .object({
    id: z.string(),
    status: z.enum(['draft', 'scheduled', 'posted', 'failed']),
    message: z.string(),
    accountIds: z.array(z.string()),
    media: z.array(MediaObject),
    accountOptions: AccountOptions,
    scheduledAt: z.string().nullable(),
    postedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    results: z.array(TargetResult),
  })
  .meta({ id: 'Post' });

const Token = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(['personal', 'cli']),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    expiresAt: z.string().nullable().meta({
      description:
        'When the token stops working (401 `token_expired`). Personal tokens: fixed at creation. CLI tokens: 90 days after the last use, moved on by each use. Null only for tokens from before expiry existed that were never migrated.',
    }),
  })
  .meta({ id: 'ApiToken' });

const idParam = (what: string) => ({
  name: 'id',
  in: 'path' as const,
  description: `The ${what} id.`,
  schema: z.string(),
});
const idempotencyHeader = idempotencyKeyParameter(
  'the user',
  'Keys live in the database: every instance sees them and a restart forgets nothing.',
);

/** The Scheduler's OpenAPI 3.1 document, from the same shared schemas the handlers parse with. */
export function schedulerOpenApi(appUrl: string, publishers: PublisherRegistry) {
  const doc = new OpenApiDocument({
    info: {
      title: 'Postwave Scheduler API',
      version: '1.0.0',
      description: [
        'Users, connected accounts, stored posts, drafts and scheduling around the Postwave publishing SDK.',
        '',
        '**Auth**: a browser session cookie (unsafe methods must be same-origin: `Sec-Fetch-Site: same-origin` or a matching `Origin`), or `Authorization: Bearer <token>` (personal or CLI token).',
        '**Errors** are RFC 9457 `application/problem+json` with a stable `code`. Unknown JSON fields are ignored.',
        '**Decisions**: reconnecting an existing account answers 200 instead of 201; `GET /api/v1/posts?limit` above 200 is 400; a post being published at this moment answers 409 to changes.',
      ].join('\n'),
    },
    servers: [{ url: appUrl }],
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'Personal or CLI token (`pw_…`).' },
      session: { type: 'apiKey', in: 'cookie', name: 'authjs.session-token' },
    },
    security: [{ bearer: [] }, { session: [] }],
  });
  for (const publisher of publishers.list()) {
    const name = publisher.id.charAt(0).toUpperCase() + publisher.id.slice(1);
    doc.component(`${name}Options`, publisher.optionsSchema);
    doc.component(`${name}Credentials`, publisher.credentialsSchema);
  }

  doc.operation('post', '/api/auth/signup', {
    operationId: 'signUp',
    summary: 'Create a user with email and password; sets the session cookie',
    description:
      'The new user can use the app at once. A single-use e-mail verification link is sent (or logged without SMTP); until it is followed `emailVerifiedAt` is null and the user cannot link GitHub or Google sign-in.',
    security: [],
    requestBody: {
      content: { [json]: z.object({ email: z.string(), password: z.string(), name: z.string().optional() }) },
    },
    responses: {
      201: {
        description: 'Created; `Set-Cookie` carries the session.',
        content: {
          [json]: z.object({
            user: z.object({
              id: z.string(),
              email: z.string(),
              name: z.string().nullable(),
              emailVerifiedAt: z.string().nullable(),
            }),
          }),
        },
      },
      ...problemResponses({
        invalid_request: 'wrong types',
        email_taken: 'the email is registered',
        validation_failed: 'password under 10 characters or malformed email',
      }),
    },
  });
  doc.operation('post', '/api/auth/verify-email', {
    operationId: 'verifyEmail',
    summary:
      'Use an e-mail verification link (`{ token }`); a form post is answered with a redirect to /verify-email',
    security: [],
    requestBody: { content: { [json]: z.object({ token: z.string() }) } },
    responses: {
      204: { description: 'Verified.' },
      ...problemResponses({
        invalid_request: 'wrong types',
        validation_failed: '`invalid_verification_token`: unknown, expired or used link',
      }),
    },
  });
  doc.operation('post', '/api/auth/verify-email/resend', {
    operationId: 'resendVerificationEmail',
    summary:
      'Send a new verification link to the signed-in user (browser session; at most three per 15 minutes)',
    responses: {
      202: { description: 'Sent unless verified already or asked too often.' },
      ...problemResponses({ unauthorized: 'no session', forbidden: 'not a same-origin browser session' }),
    },
  });
  doc.operation('get', '/api/auth/sign-in-methods', {
    operationId: 'listSignInMethods',
    summary:
      'How the signed-in user can sign in (password, linked GitHub/Google) and which providers are configured',
    responses: {
      200: {
        description: 'Sign-in methods.',
        content: {
          [json]: z.object({
            password: z.boolean(),
            identities: z.array(z.object({ provider: z.string(), createdAt: z.string() })),
            providers: z.array(z.object({ id: z.string(), name: z.string() })),
          }),
        },
      },
      ...problemResponses({ unauthorized: 'no session', forbidden: 'a bearer token instead of a session' }),
    },
  });
  doc.operation('post', '/api/auth/sign-in-methods/{provider}', {
    operationId: 'linkSignInMethod',
    summary:
      'Start linking a provider to the signed-in user: 303 to the provider; its callback links the identity to this user only. Never linked by e-mail alone.',
    parameters: [
      {
        name: 'provider',
        in: 'path' as const,
        description: 'github or google',
        schema: z.enum(['github', 'google']),
      },
    ],
    responses: {
      303: { description: 'To the provider’s consent page.' },
      ...problemResponses({
        unauthorized: 'no session',
        forbidden: 'not a same-origin browser session, or the e-mail address is not verified yet',
        not_found: 'provider not configured',
      }),
    },
  });
  doc.operation('delete', '/api/auth/sign-in-methods/{provider}', {
    operationId: 'unlinkSignInMethod',
    summary: 'Unlink a provider; the last way to sign in cannot be removed',
    parameters: [
      { name: 'provider', in: 'path' as const, description: 'github or google', schema: z.string() },
    ],
    responses: {
      204: { description: 'Unlinked.' },
      ...problemResponses({
        unauthorized: 'no session',
        forbidden: 'not a same-origin browser session',
        not_found: 'that provider is not linked',
        invalid_status: 'it is the only way to sign in',
      }),
    },
  });
  doc.operation('get', '/api/v1/tokens', {
    operationId: 'listTokens',
    summary: 'List personal and CLI tokens (never the secrets)',
    responses: {
      200: { description: 'Tokens.', content: { [json]: z.object({ tokens: z.array(Token) }) } },
      ...problemResponses(unauthorized),
    },
  });
  doc.operation('post', '/api/v1/tokens', {
    operationId: 'createToken',
    summary: 'Create a personal API token (browser session only); the secret is shown once',
    description:
      'Every personal token expires: `expiresInDays` is 30, 90 (the default) or 365, so no token lives longer than a year. A password reset revokes every token of the user.',
    requestBody: {
      content: {
        [json]: z.object({
          name: z.string().min(1).max(100),
          expiresInDays: z
            .union([z.literal(30), z.literal(90), z.literal(365)])
            .optional()
            .meta({
              description: 'Lifetime in days: 30, 90 (default) or 365. Any other value is 400.',
            }),
        }),
      },
    },
    responses: {
      201: {
        description: 'Created.',
        content: {
          [json]: z.object({
            id: z.string(),
            name: z.string(),
            token: z.string(),
            expiresAt: z.string(),
          }),
        },
      },
      ...problemResponses({
        ...unauthorized,
        forbidden: 'not a same-origin browser session',
        invalid_request: 'bad name, or `expiresInDays` other than 30, 90 or 365',
      }),
    },
  });
  doc.operation('delete', '/api/v1/tokens/{id}', {
    operationId: 'revokeToken',
    summary: 'Revoke a token',
    parameters: [idParam('token')],
    responses: { 204: { description: 'Revoked.' }, ...problemResponses({ ...unauthorized, ...notFound }) },
  });
  doc.operation('get', '/api/v1/accounts', {
    operationId: 'listAccounts',
    summary: 'The user’s connected accounts',
    responses: {
      200: { description: 'Accounts.', content: { [json]: z.object({ accounts: z.array(Account) }) } },
      ...problemResponses(unauthorized),
    },
  });
  doc.operation('post', '/api/v1/accounts', {
    operationId: 'connectAccount',
    summary: 'Connect a credential-based account after the platform verifies the credentials',
    description:
      'Problem `code` is `credentials_invalid` or `target_unreachable` (422) when the platform refuses.',
    requestBody: {
      content: {
        [json]: z.object({
          platform: z.string(),
          platformAccountId: z.string().optional(),
          credentials: z.record(z.string(), z.unknown()),
          label: z.string().optional(),
        }),
      },
    },
    responses: {
      201: { description: 'Connected.', content: { [json]: Account } },
      200: {
        description: 'Already connected: credentials and profile updated.',
        content: { [json]: Account },
      },
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'wrong types',
        validation_failed: 'credentials refused or target unreachable',
        publish_failed: 'the platform could not be reached',
      }),
    },
  });
  doc.operation('get', '/api/v1/accounts/{id}', {
    operationId: 'getAccount',
    summary: 'One connected account',
    parameters: [idParam('account')],
    responses: {
      200: { description: 'The account.', content: { [json]: Account } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  });
  doc.operation('patch', '/api/v1/accounts/{id}', {
    operationId: 'renameAccount',
    summary: 'Rename an account',
    parameters: [idParam('account')],
    requestBody: { content: { [json]: z.object({ label: z.string().nullable() }) } },
    responses: {
      200: { description: 'Renamed.', content: { [json]: Account } },
      ...problemResponses({ ...unauthorized, ...notFound, invalid_request: 'wrong types' }),
    },
  });
  doc.operation('delete', '/api/v1/accounts/{id}', {
    operationId: 'disconnectAccount',
    summary:
      'Disconnect an account; unposted posts lose it as a target, a post left without targets becomes a draft',
    parameters: [idParam('account')],
    responses: {
      204: { description: 'Disconnected.' },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  });
  doc.operation('get', '/api/v1/accounts/connect/{platform}', {
    operationId: 'startOAuthConnect',
    summary: 'Browser redirect to the platform’s consent screen (YouTube)',
    parameters: [{ name: 'platform', in: 'path', schema: z.enum(['youtube']) }],
    responses: {
      302: { description: 'To Google’s consent screen (state bound to the user, PKCE S256).' },
      ...problemResponses({ ...unauthorized, ...notFound, not_supported: 'GOOGLE_CLIENT_ID/SECRET unset' }),
    },
  });
  doc.operation('post', '/api/v1/upload', {
    operationId: 'uploadMedia',
    summary: 'Upload one file (multipart field `file`), streamed to storage',
    requestBody: {
      content: { 'multipart/form-data': z.object({ file: z.string().meta({ format: 'binary' }) }) },
    },
    responses: {
      201: { description: 'Stored.', content: { [json]: UploadResponse } },
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'not multipart or no file',
        payload_too_large: 'over MAX_UPLOAD_BYTES',
        unsupported_media_type: 'not a publishable type, or the declared type disagrees with the bytes',
      }),
    },
  });
  doc.operation('post', '/api/v1/upload/presign', {
    operationId: 'presignUpload',
    summary: 'A direct upload URL bound to filename, type and size (15 minutes)',
    requestBody: { content: { [json]: PresignRequest } },
    responses: {
      201: {
        description: 'PUT the exact bytes to `uploadUrl` with the returned headers.',
        content: { [json]: PresignResponse },
      },
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'wrong types',
        payload_too_large: 'size over the limit',
        unsupported_media_type: 'type not publishable',
      }),
    },
  });
  doc.operation('get', '/media/{key}', {
    operationId: 'getMedia',
    summary: 'Serve stored media by its unguessable key (public, ranges and ETags)',
    security: [],
    parameters: [{ name: 'key', in: 'path', schema: z.string() }],
    responses: {
      200: { description: 'The file.' },
      206: { description: 'A byte range.' },
      304: { description: 'Not modified.' },
      404: { description: 'No such key.' },
    },
  });
  doc.operation('post', '/api/v1/validation', {
    operationId: 'validatePost',
    summary: 'Validate a post against each of its accounts (never publishes)',
    requestBody: { content: { [json]: ValidationRequest } },
    responses: {
      200: {
        description: 'Per-account results; `valid: false` is still 200.',
        content: { [json]: ValidationResponse },
      },
      ...problemResponses({ ...unauthorized, invalid_request: 'malformed body' }),
    },
  });
  doc.operation('get', '/api/v1/posts', {
    operationId: 'listPosts',
    summary: 'Posts, newest first, keyset-paginated',
    parameters: [
      { name: 'status', in: 'query', schema: z.enum(['draft', 'scheduled', 'posted', 'failed']) },
      { name: 'limit', in: 'query', description: '1–200, default 50.', schema: z.number().int() },
      { name: 'cursor', in: 'query', description: '`nextCursor` of the previous page.', schema: z.string() },
    ],
    responses: {
      200: {
        description: 'A page.',
        content: { [json]: z.object({ posts: z.array(Post), nextCursor: z.string().nullable() }) },
      },
      ...problemResponses({ ...unauthorized, invalid_request: 'bad status, limit or cursor' }),
    },
  });
  doc.operation('post', '/api/v1/posts', {
    operationId: 'createPost',
    summary: 'Publish now, schedule, or save a draft',
    description:
      '`now` validates every target first (422 and nothing published if any is invalid) and returns the finished post, `posted` or `failed`. `schedule` needs a future `scheduledAt` and validates up front.',
    parameters: [idempotencyHeader],
    requestBody: { content: { [json]: PostRequest } },
    responses: {
      201: { description: 'The post.', content: { [json]: Post } },
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'malformed body',
        validation_failed: 'invalid for some account, unknown mode, or scheduledAt missing/past',
        ...idempotencyProblems,
      }),
    },
  });
  doc.operation('get', '/api/v1/posts/{id}', {
    operationId: 'getPost',
    summary: 'One post with its per-target results',
    parameters: [idParam('post')],
    responses: {
      200: { description: 'The post.', content: { [json]: Post } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  });
  doc.operation('patch', '/api/v1/posts/{id}', {
    operationId: 'updatePost',
    summary: 'Edit a draft, scheduled or failed post (a scheduled one is re-validated)',
    parameters: [idParam('post')],
    requestBody: { content: { [json]: PostPatchRequest } },
    responses: {
      200: { description: 'The post.', content: { [json]: Post } },
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        invalid_status: 'posted, or being published',
        validation_failed: 'no longer valid',
      }),
    },
  });
  doc.operation('post', '/api/v1/posts/{id}', {
    operationId: 'actOnPost',
    summary: 'Publish now, schedule, or move back to draft',
    description:
      'Publishing a `failed` post retries only the targets that did not post: a target is never posted twice.',
    parameters: [idParam('post'), idempotencyHeader],
    requestBody: { content: { [json]: PostActionRequest } },
    responses: {
      200: { description: 'The post.', content: { [json]: Post } },
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        invalid_status: 'posted, or being published',
        validation_failed: 'invalid, unknown mode, or scheduledAt missing/past',
        ...idempotencyProblems,
      }),
    },
  });
  doc.operation('delete', '/api/v1/posts/{id}', {
    operationId: 'deletePost',
    summary: 'Delete a draft, scheduled or failed post',
    parameters: [idParam('post')],
    responses: {
      204: { description: 'Deleted.' },
      ...problemResponses({ ...unauthorized, ...notFound, invalid_status: 'posted, or being published' }),
    },
  });
  doc.operation('post', '/api/internal/scheduled-posts/dispatch', {
    operationId: 'dispatchScheduledPosts',
    summary: 'Publish due scheduled posts (for cron)',
    description:
      '`Authorization: Bearer <DISPATCH_SECRET>`; 404 when DISPATCH_SECRET is unset. Concurrent calls never publish a target twice.',
    security: [{ dispatchSecret: [] }],
    responses: {
      200: {
        description: 'What this run did.',
        content: {
          [json]: z.object({
            claimed: z.number(),
            posted: z.number(),
            failed: z.number(),
            rescheduled: z.number(),
            released: z.number(),
          }),
        },
      },
      ...problemResponses({ unauthorized: 'wrong or missing secret', not_found: 'DISPATCH_SECRET unset' }),
    },
  });
  return doc.toJSON();
}
