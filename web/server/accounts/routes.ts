import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { idParam, json, notFound, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import {
  AccountList,
  ConnectAccountRequest,
  ConnectedAccount,
  OptionChoiceList,
  PickAccountsRequest,
  RenameAccountRequest,
} from './schema.ts';

const platformParam = {
  name: 'platform',
  in: 'path' as const,
  description: 'A platform whose manifest says it connects through OAuth.',
  schema: z.string(),
};

export const accountsRoutes = defineApiRoutes({
  listAccounts: {
    method: 'get',
    path: '/api/v1/accounts',
    auth: 'caller',
    permission: 'read',
    operationId: 'listAccounts',
    summary: 'The user’s connected accounts',
    description:
      'Each account carries `health` from the periodic check (every `ACCOUNT_HEALTH_INTERVAL_MS`, default 6 hours): ' +
      '`ok`, `expiring` (the token expires within `ACCOUNT_HEALTH_EXPIRING_MS` and could not be renewed), ' +
      '`needs_reconnect` (the platform refused the credentials; also set when a publish is refused) or `unreachable` ' +
      '(the platform or the target could not be reached at the last check). `healthReason` says why in a sentence; ' +
      '`healthCheckedAt` is null until the first check. A (re)connected account starts `ok`. A change to ' +
      '`needs_reconnect` sends the `account.needs_reconnect` webhook event and, like a change to `expiring`, one e-mail.',
    responses: {
      200: { description: 'Accounts.', content: { [json]: AccountList } },
      ...problemResponses(unauthorized),
    },
  },
  connectAccount: {
    method: 'post',
    path: '/api/v1/accounts',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'connectAccount',
    summary: 'Connect a credential-based account after the platform verifies the credentials',
    description:
      'Problem `code` is `credentials_invalid` or `target_unreachable` (422) when the platform refuses; the problem and its issue carry `hint`, one sentence on what the person can do (check the credentials, the address, or wait).',
    requestBody: { content: { [json]: ConnectAccountRequest } },
    responses: {
      201: {
        description:
          'Connected. Also when the account was already connected: the same id, its credentials and profile updated (a reconnect).',
        content: { [json]: ConnectedAccount },
      },
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'wrong types',
        validation_failed: 'a platform this server does not have',
        credentials_invalid:
          'the platform refused the credentials, or they lack a field it needs; `hint` says what to do',
        target_unreachable:
          'the platform cannot reach the chat, page or server named, or it could not be reached at all; `hint` says what to do',
        publish_failed: 'the platform could not be reached',
      }),
    },
  },
  getAccount: {
    method: 'get',
    path: '/api/v1/accounts/{id}',
    auth: 'caller',
    permission: 'read',
    operationId: 'getAccount',
    summary: 'One connected account',
    parameters: [idParam('account')],
    responses: {
      200: { description: 'The account.', content: { [json]: ConnectedAccount } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  renameAccount: {
    method: 'patch',
    path: '/api/v1/accounts/{id}',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'renameAccount',
    summary: 'Rename an account',
    parameters: [idParam('account')],
    requestBody: { content: { [json]: RenameAccountRequest } },
    responses: {
      200: { description: 'Renamed.', content: { [json]: ConnectedAccount } },
      ...problemResponses({ ...unauthorized, ...notFound, invalid_request: 'wrong types' }),
    },
  },
  disconnectAccount: {
    method: 'delete',
    path: '/api/v1/accounts/{id}',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'disconnectAccount',
    summary:
      'Disconnect an account; unposted posts lose it as a target, a post left without targets becomes a draft',
    parameters: [idParam('account')],
    responses: {
      204: { description: 'Disconnected.' },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  listOptionChoices: {
    method: 'get',
    path: '/api/v1/accounts/{id}/options/{field}',
    auth: 'caller',
    permission: 'read',
    operationId: 'listOptionChoices',
    summary: 'The choices the platform offers this account for an option (boards, flairs, privacy levels)',
    description:
      'For an option field whose entry in the platform’s manifest has `choicesFrom` (`docs/platforms/README.md`): ' +
      'asks the platform, for this account, which values the field may take. When the ' +
      'field `dependsOn` another (a board’s sections), that field’s current value is passed as the query parameter ' +
      'of its name (`?board=…`); without it the platform answers for none. Answers are cached for 60 seconds per ' +
      'account, field and `dependsOn` value; each user may make 60 uncached asks a minute (429 `rate_limited` with ' +
      '`Retry-After` beyond, or when the platform itself asks to wait). Validation refuses a value outside these ' +
      'choices with the issue `option_not_offered` (path `accountOptions.<account id>.<field>`), unless the field ' +
      'says `allowCustom`; when the choices cannot be loaded, the value passes with the warning ' +
      '`option_choices_unavailable`. A refused token marks the account `needs_reconnect`, as a refused publish does.',
    parameters: [
      idParam('account'),
      {
        name: 'field',
        in: 'path' as const,
        description:
          'The option’s name as the manifest gives it (dotted for a nested option: `event.title`).',
        schema: z.string(),
      },
    ],
    responses: {
      200: { description: 'The choices.', content: { [json]: OptionChoiceList } },
      ...problemResponses({
        ...unauthorized,
        not_found:
          'no such account for this user, or its platform has no option of that name whose choices come from the platform',
        credentials_invalid:
          'the platform refused the account’s credentials (the account is now `needs_reconnect`); `hint` says what to do',
        target_unreachable: 'the platform cannot reach the account’s target; `hint` says what to do',
        rate_limited: 'more than 60 uncached asks a minute, or the platform asked to wait; see `Retry-After`',
        publish_failed: 'the platform could not be reached',
      }),
    },
  },
  startOAuthConnect: {
    method: 'get',
    path: '/api/v1/accounts/connect/{platform}',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'startOAuthConnect',
    summary: 'Browser redirect to the platform’s consent screen',
    description:
      'Starts the OAuth connect flow of any platform whose SDK module has a connector: a one-time `state` bound to the user (stored hashed, 10 minutes) and a PKCE S256 challenge where the platform supports PKCE. A platform that needs a server call before consent (an OAuth 1.0a request token) is called first, within 30 seconds, and what it must keep for the callback is stored encrypted with the state; when that call fails the browser goes to `/accounts?error=provider_error` (or `credentials_invalid`) with `message` and `hint`, as a failed callback does. With `accountId` the flow reconnects that account: it is updated in place (with the other accounts of the same login, which share its credentials), and a login as another platform account is refused (`error=account_mismatch`).',
    parameters: [
      platformParam,
      {
        name: 'accountId',
        in: 'query',
        required: false,
        description: 'Reconnect this account (one of the caller’s, on this platform).',
        schema: z.string(),
      },
    ],
    responses: {
      302: { description: 'To the platform’s consent screen.' },
      303: {
        description:
          'A browser navigation (`Accept: text/html`) to a platform whose OAuth client is not configured goes to `/setup?missing={platform}`, a page naming the settings that turn it on, instead of a problem document.',
      },
      ...problemResponses({
        ...unauthorized,
        not_found: 'no OAuth connector for this platform, or `accountId` is not the caller’s account on it',
        not_supported: 'the platform’s OAuth client is not configured on this server',
      }),
    },
  },
  finishOAuthConnect: {
    method: 'get',
    path: '/api/v1/accounts/connect/{platform}/callback',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'finishOAuthConnect',
    summary: 'Where the platform sends the browser back; saves the account',
    description:
      'Redirects to `/accounts` with `connected=<account id>` (one per saved account) on success, or `error` (`access_denied`, `invalid_state`, `credentials_invalid`, `no_accounts`, `account_mismatch`, `provider_error`, `invalid_request`), `message` (what happened) and `hint` (one sentence on what the person can do; the accounts page shows the hint of the `error` code). When the login reaches several accounts (pages, organizations, profiles) it redirects to the picker page `/accounts/pick?pending=<token>` instead: nothing is saved until the user picks (`pickOAuthAccounts`). Accounts one login reaches that publish with the same tokens (boards, locations) share one stored grant: a renewed token serves them all, a refused one marks them all `needs_reconnect`. Every query parameter is handed to the platform’s connector (OAuth 1.0a answers `oauth_token` and `oauth_verifier` instead of `code`).',
    parameters: [
      platformParam,
      { name: 'code', in: 'query', schema: z.string() },
      { name: 'state', in: 'query', schema: z.string() },
      {
        name: 'oauth_verifier',
        in: 'query',
        description: 'OAuth 1.0a platforms: the verifier, taken instead of `code`.',
        schema: z.string(),
      },
    ],
    responses: {
      302: { description: 'Back to the accounts page with the outcome, or on to the picker page.' },
      ...problemResponses({ ...unauthorized, not_found: 'no OAuth connector for this platform' }),
    },
  },
  pickOAuthAccounts: {
    method: 'post',
    path: '/api/v1/accounts/connect/{platform}/pick',
    auth: 'session',
    permission: 'workspace.manage',
    operationId: 'pickOAuthAccounts',
    summary: 'Connect the accounts picked among those one login reached',
    description:
      'The picker page’s answer: `pending` (its token: bound to the user, single use, 10 minutes) and `accountIds` (platform account ids among those offered); each becomes one connected account (an already connected one is updated). As the page’s form (`application/x-www-form-urlencoded`) it answers 303 to `/accounts?connected=…` (back to the picker with `error=nothing_chosen` when none was ticked); as JSON it answers 201.',
    parameters: [platformParam],
    requestBody: { content: { [json]: PickAccountsRequest } },
    responses: {
      201: { description: 'Connected.', content: { [json]: AccountList } },
      303: { description: 'The form was answered: to the accounts page, or back to the picker.' },
      ...problemResponses({
        ...unauthorized,
        not_found: 'the choice expired, was already made, or is another user’s',
        invalid_request: 'wrong types',
        unsupported_media_type: 'neither the form nor JSON',
        validation_failed: 'nothing chosen, or an account the login did not offer',
      }),
    },
  },
});
