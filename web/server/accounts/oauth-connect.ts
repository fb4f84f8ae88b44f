import {
  type AuthorizeStart,
  type ConnectableAccount,
  isPlatformError,
  type OAuthConnector,
  ProblemError,
  problem,
  withDeadline,
} from '@postwave/shared';
import type { AuditActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { hashSecret, newSecret, pkceChallenge } from '#server/security/tokens.ts';
import { ConnectError } from './connect-error.ts';
import { insertConnectState, insertPendingConnection, takeConnectState } from './connect-repository.ts';
import { getAccountRow } from './list-accounts.ts';
import { saveReached } from './oauth-save.ts';
import type { AccountView } from './schema.ts';

/*
 * The Scheduler's side of "Connect with <platform>", the same for every OAuth platform: the
 * platform's connector (from its SDK folder) builds the consent URL (or starts the flow with a
 * server call, `startAuthorization`), exchanges the code and lists the accounts the grant
 * reaches; this module owns state, PKCE, the connector's secret, the picker and saving.
 */

const stateLifetimeMs = 10 * 60 * 1000;
const exchangeTimeoutMs = 60_000;
/** A server call before consent (a request token) is short; the browser is waiting on it. */
const startTimeoutMs = 30_000;

/** Thrown by both steps of the flow; the routes turn it into the accounts page's link. */
export { ConnectError } from './connect-error.ts';

export function callbackUrl(ctx: AppContext, platform: string): string {
  return `${ctx.config.appUrl}/api/v1/accounts/connect/${platform}/callback`;
}

export function displayName(ctx: AppContext, platform: string): string {
  return ctx.publishers.get(platform)?.displayName ?? platform;
}

function connectorFor(ctx: AppContext, platform: string): OAuthConnector {
  const connector = ctx.connectors.get(platform);
  if (!connector) throw notFound('OAuth platform');
  if (!connector.configured) {
    const manifestConnect = ctx.platforms.get(platform)?.manifest.connect;
    const needed =
      manifestConnect && manifestConnect.method === 'oauth' ? manifestConnect.requiredEnv.join(' and ') : '';
    throw new ProblemError(
      problem(
        'not_supported',
        `Connecting ${displayName(ctx, platform)} is not set up on this server${needed ? `: the operator sets ${needed}` : ''}`,
      ),
    );
  }
  return connector;
}

/** A platform failure during the flow, in the words the accounts page shows. */
function connectFailure(ctx: AppContext, platform: string, error: unknown, during: string): ConnectError {
  const name = displayName(ctx, platform);
  if (!isPlatformError(error)) {
    ctx.logger.warn({ platform, err: (error as Error).message }, `OAuth ${during} failed`);
    return new ConnectError('provider_error', `${name} could not be reached; try again`);
  }
  if (error.retryable)
    return new ConnectError('provider_error', `${name} could not be reached; try again (${error.message})`);
  return new ConnectError(
    error.code === 'target_unreachable' ? 'no_accounts' : 'credentials_invalid',
    error.message,
  );
}

/**
 * Starts the consent flow: a random state bound to this user (stored hashed, 10 minutes, single
 * use), a PKCE verifier kept encrypted server-side where the platform supports PKCE, and for a
 * reconnect the account it must update. A connector with `startAuthorization` is called first
 * (under a 30-second deadline) and what it asks to keep (`secret`) is stored encrypted with the
 * state. Returns the URL to send the browser to; a platform failure is a `ConnectError`.
 */
export async function startConnect(
  ctx: AppContext,
  workspaceId: string,
  platform: string,
  options: { accountId?: string | null } = {},
): Promise<string> {
  const connector = connectorFor(ctx, platform);
  let accountId: string | null = null;
  if (options.accountId) {
    const row = await getAccountRow(ctx, workspaceId, options.accountId);
    if (!row || row.platform !== platform) throw notFound('account');
    accountId = row.id;
  }
  const state = newSecret('', 32);
  const verifier = connector.pkce ? newSecret('', 48) : '';
  const consent = {
    state,
    redirectUri: callbackUrl(ctx, platform),
    ...(connector.pkce ? { codeChallenge: pkceChallenge(verifier) } : {}),
  };
  let start: AuthorizeStart;
  if (connector.startAuthorization) {
    const deadline = withDeadline(undefined, startTimeoutMs);
    try {
      start = await connector.startAuthorization({ ...consent, signal: deadline.signal });
    } catch (error) {
      throw connectFailure(ctx, platform, error, 'start');
    } finally {
      deadline.dispose();
    }
  } else {
    start = { url: connector.authorizeUrl(consent) };
  }
  const stateHash = hashSecret(state);
  const now = new Date();
  await insertConnectState(ctx, {
    stateHash,
    workspaceId,
    platform,
    codeVerifier: ctx.cipher.encrypt(verifier, `connect:${stateHash}`),
    secret:
      start.secret === undefined ? null : ctx.cipher.encrypt(start.secret, `connect-secret:${stateHash}`),
    accountId,
    expiresAt: new Date(now.getTime() + stateLifetimeMs),
    createdAt: now,
  });
  return start.url;
}

export type ConnectOutcome =
  | { kind: 'connected'; accounts: AccountView[] }
  /** Several accounts answered: the user picks on `/accounts/pick?pending=<token>`. */
  | { kind: 'pick'; token: string };

/**
 * Finishes the flow: the state must be this user's, unexpired and unused; the code (`code`, or
 * OAuth 1.0a's `oauth_verifier`) is exchanged with the PKCE verifier, the connector's secret and
 * the callback's whole query; one account is saved at once, several wait for the picker. A
 * reconnect updates only the account it was started for (and the other accounts of its login).
 */
export async function finishConnect(
  ctx: AppContext,
  workspaceId: string,
  platform: string,
  query: URLSearchParams,
  actor?: AuditActor,
): Promise<ConnectOutcome> {
  const connector = ctx.connectors.get(platform);
  if (!connector) throw notFound('OAuth platform');
  const name = displayName(ctx, platform);
  const state = query.get('state');
  if (!state)
    throw new ConnectError('invalid_state', 'The connection link is missing its state; start again');
  const stateHash = hashSecret(state);
  const row = await takeConnectState(ctx, { stateHash, workspaceId, platform });
  if (!row)
    throw new ConnectError(
      'invalid_state',
      'The connection link expired or belongs to someone else; start again',
    );
  const denied = query.get('error') ?? (query.get('denied') !== null ? 'access_denied' : null);
  if (denied) {
    const cancelled = /denied|cancel/i.test(`${denied} ${query.get('error_reason') ?? ''}`);
    throw new ConnectError(
      cancelled ? 'access_denied' : 'provider_error',
      cancelled
        ? `Sign-in with ${name} was cancelled, so nothing was connected`
        : `${name} answered: ${denied.slice(0, 100)}`,
    );
  }
  const code = query.get('code') ?? query.get('oauth_verifier');
  if (!code) throw new ConnectError('invalid_request', `${name} did not return an authorization code`);

  const verifier = ctx.cipher.decrypt(row.codeVerifier, `connect:${stateHash}`);
  const secret =
    row.secret === null ? undefined : ctx.cipher.decrypt(row.secret, `connect-secret:${stateHash}`);
  let reached: ConnectableAccount[];
  const deadline = withDeadline(undefined, exchangeTimeoutMs);
  try {
    reached = await connector.exchangeCode({
      code,
      redirectUri: callbackUrl(ctx, platform),
      ...(verifier ? { codeVerifier: verifier } : {}),
      ...(secret !== undefined ? { secret } : {}),
      query: Object.fromEntries(query),
      signal: deadline.signal,
    });
  } catch (error) {
    throw connectFailure(ctx, platform, error, 'code exchange');
  } finally {
    deadline.dispose();
  }
  if (reached.length === 0)
    throw new ConnectError('no_accounts', `This ${name} login has no account Postwave can publish to`);

  if (row.accountId) {
    const target = await getAccountRow(ctx, workspaceId, row.accountId);
    const match = target && reached.find((a) => a.platformAccountId === target.platformAccountId);
    if (!match) {
      throw new ConnectError(
        'account_mismatch',
        `You signed in to ${name} as an account other than the one you are reconnecting; sign in as that account and try again`,
      );
    }
    return {
      kind: 'connected',
      accounts: await saveReached(ctx, workspaceId, platform, reached, [match], actor),
    };
  }
  if (reached.length === 1) {
    return {
      kind: 'connected',
      accounts: await saveReached(ctx, workspaceId, platform, reached, reached, actor),
    };
  }
  const token = newSecret('', 32);
  const tokenHash = hashSecret(token);
  const now = new Date();
  await insertPendingConnection(ctx, {
    tokenHash,
    workspaceId,
    platform,
    accounts: ctx.cipher.encryptJson(reached, `connect-pending:${tokenHash}`),
    expiresAt: new Date(now.getTime() + stateLifetimeMs),
    createdAt: now,
  });
  return { kind: 'pick', token };
}
