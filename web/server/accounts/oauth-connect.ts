import {
  type ConnectableAccount,
  isPlatformError,
  type OAuthConnector,
  ProblemError,
  platformModules,
  problem,
  withDeadline,
} from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { hashSecret, newSecret, pkceChallenge } from '#server/security/tokens.ts';
import {
  connectedPlatformAccountIds,
  deletePendingConnection,
  findPendingConnection,
  insertConnectState,
  insertPendingConnection,
  takeConnectState,
} from './connect-repository.ts';
import type { AccountView } from './schema.ts';
import { getAccountRow, saveAccount } from './service.ts';

/*
 * The Scheduler's side of "Connect with <platform>", the same for every OAuth platform: the
 * platform's connector (from its SDK folder) builds the consent URL, exchanges the code and lists
 * the accounts the grant reaches; this module owns state, PKCE, the picker and saving.
 */

const stateLifetimeMs = 10 * 60 * 1000;
const exchangeTimeoutMs = 60_000;

const connectorsByContext = new WeakMap<AppContext, Map<string, OAuthConnector>>();

/** The OAuth connectors of every platform module that has one, built once per context. */
function connectors(ctx: AppContext): Map<string, OAuthConnector> {
  let found = connectorsByContext.get(ctx);
  if (!found) {
    found = new Map(
      platformModules.flatMap((module) =>
        module.createConnector ? [[module.id, module.createConnector(ctx.config.env)] as const] : [],
      ),
    );
    connectorsByContext.set(ctx, found);
  }
  return found;
}

export function callbackUrl(ctx: AppContext, platform: string): string {
  return `${ctx.config.appUrl}/api/v1/accounts/connect/${platform}/callback`;
}

function displayName(ctx: AppContext, platform: string): string {
  return ctx.publishers.get(platform)?.displayName ?? platform;
}

function connectorFor(ctx: AppContext, platform: string): OAuthConnector {
  const connector = connectors(ctx).get(platform);
  if (!connector) throw notFound('OAuth platform');
  if (!connector.configured) {
    const module = platformModules.find((m) => m.id === platform);
    const manifestConnect = module?.manifest?.connect;
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

/** A flow that ended before an account was saved; shown to the user on the accounts page. */
export class ConnectError extends Error {
  override name = 'ConnectError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Starts the consent flow: a random state bound to this user (stored hashed, 10 minutes, single
 * use), a PKCE verifier kept encrypted server-side where the platform supports PKCE, and for a
 * reconnect the account it must update. Returns the URL to send the browser to.
 */
export async function startConnect(
  ctx: AppContext,
  userId: string,
  platform: string,
  options: { accountId?: string | null } = {},
): Promise<string> {
  const connector = connectorFor(ctx, platform);
  let accountId: string | null = null;
  if (options.accountId) {
    const row = await getAccountRow(ctx, userId, options.accountId);
    if (!row || row.platform !== platform) throw notFound('account');
    accountId = row.id;
  }
  const state = newSecret('', 32);
  const verifier = connector.pkce ? newSecret('', 48) : '';
  const stateHash = hashSecret(state);
  const now = new Date();
  await insertConnectState(ctx, {
    stateHash,
    userId,
    platform,
    codeVerifier: ctx.cipher.encrypt(verifier, `connect:${stateHash}`),
    accountId,
    expiresAt: new Date(now.getTime() + stateLifetimeMs),
    createdAt: now,
  });
  return connector.authorizeUrl({
    state,
    redirectUri: callbackUrl(ctx, platform),
    ...(connector.pkce ? { codeChallenge: pkceChallenge(verifier) } : {}),
  });
}

export type ConnectOutcome =
  | { kind: 'connected'; accounts: AccountView[] }
  /** Several accounts answered: the user picks on `/accounts/pick?pending=<token>`. */
  | { kind: 'pick'; token: string };

/**
 * Finishes the flow: the state must be this user's, unexpired and unused; the code is exchanged
 * (with the PKCE verifier); one account is saved at once, several wait for the picker. A reconnect
 * updates only the account it was started for.
 */
export async function finishConnect(
  ctx: AppContext,
  userId: string,
  platform: string,
  query: URLSearchParams,
): Promise<ConnectOutcome> {
  const connector = connectors(ctx).get(platform);
  if (!connector) throw notFound('OAuth platform');
  const name = displayName(ctx, platform);
  const state = query.get('state');
  if (!state)
    throw new ConnectError('invalid_state', 'The connection link is missing its state; start again');
  const stateHash = hashSecret(state);
  const row = await takeConnectState(ctx, { stateHash, userId, platform });
  if (!row)
    throw new ConnectError(
      'invalid_state',
      'The connection link expired or belongs to someone else; start again',
    );
  const denied = query.get('error');
  if (denied) {
    const cancelled = /denied|cancel/i.test(`${denied} ${query.get('error_reason') ?? ''}`);
    throw new ConnectError(
      cancelled ? 'access_denied' : 'provider_error',
      cancelled
        ? `Sign-in with ${name} was cancelled, so nothing was connected`
        : `${name} answered: ${denied.slice(0, 100)}`,
    );
  }
  const code = query.get('code');
  if (!code) throw new ConnectError('invalid_request', `${name} did not return an authorization code`);

  const verifier = ctx.cipher.decrypt(row.codeVerifier, `connect:${stateHash}`);
  let reached: ConnectableAccount[];
  const deadline = withDeadline(undefined, exchangeTimeoutMs);
  try {
    reached = await connector.exchangeCode({
      code,
      redirectUri: callbackUrl(ctx, platform),
      ...(verifier ? { codeVerifier: verifier } : {}),
      signal: deadline.signal,
    });
  } catch (error) {
    if (!isPlatformError(error)) {
      ctx.logger.warn({ platform, err: (error as Error).message }, 'OAuth code exchange failed');
      throw new ConnectError('provider_error', `${name} could not be reached; try again`);
    }
    if (error.retryable)
      throw new ConnectError('provider_error', `${name} could not be reached; try again (${error.message})`);
    throw new ConnectError(
      error.code === 'target_unreachable' ? 'no_accounts' : 'credentials_invalid',
      error.message,
    );
  } finally {
    deadline.dispose();
  }
  if (reached.length === 0)
    throw new ConnectError('no_accounts', `This ${name} login has no account Postwave can publish to`);

  if (row.accountId) {
    const target = await getAccountRow(ctx, userId, row.accountId);
    const match = target && reached.find((a) => a.platformAccountId === target.platformAccountId);
    if (!match) {
      throw new ConnectError(
        'account_mismatch',
        `You signed in to ${name} as an account other than the one you are reconnecting; sign in as that account and try again`,
      );
    }
    return { kind: 'connected', accounts: [await save(ctx, userId, platform, match)] };
  }
  if (reached.length === 1) {
    return { kind: 'connected', accounts: [await save(ctx, userId, platform, reached[0]!)] };
  }
  const token = newSecret('', 32);
  const tokenHash = hashSecret(token);
  const now = new Date();
  await insertPendingConnection(ctx, {
    tokenHash,
    userId,
    platform,
    accounts: ctx.cipher.encryptJson(reached, `connect-pending:${tokenHash}`),
    expiresAt: new Date(now.getTime() + stateLifetimeMs),
    createdAt: now,
  });
  return { kind: 'pick', token };
}

async function save(
  ctx: AppContext,
  userId: string,
  platform: string,
  reached: ConnectableAccount,
): Promise<AccountView> {
  const { account } = await saveAccount(ctx, userId, {
    platform,
    platformAccountId: reached.platformAccountId,
    credentials: reached.credentials,
    profile: reached.profile,
  });
  return account;
}

/** One choice on the picker page: what the user sees, never the credentials. */
export interface PendingChoice {
  platformAccountId: string;
  name: string;
  username?: string;
  avatarUrl?: string;
  kind?: string;
  /** Already connected by this user: picking it again refreshes its credentials. */
  connected: boolean;
}

export interface PendingConnection {
  platform: string;
  platformName: string;
  choices: PendingChoice[];
  expiresAt: string;
}

async function loadPending(
  ctx: AppContext,
  userId: string,
  token: string,
): Promise<
  { tokenHash: string; platform: string; reached: ConnectableAccount[]; expiresAt: Date } | undefined
> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const tokenHash = hashSecret(token);
  const row = await findPendingConnection(ctx, { tokenHash, userId });
  if (!row) return undefined;
  const reached = ctx.cipher.decryptJson<ConnectableAccount[]>(row.accounts, `connect-pending:${tokenHash}`);
  return { tokenHash, platform: row.platform, reached, expiresAt: row.expiresAt };
}

/** The picker's choices, or undefined when the token is unknown, expired or another user's. */
export async function getPendingConnection(
  ctx: AppContext,
  userId: string,
  token: string,
): Promise<PendingConnection | undefined> {
  const pending = await loadPending(ctx, userId, token);
  if (!pending) return undefined;
  const connected = await connectedPlatformAccountIds(ctx, userId, pending.platform);
  return {
    platform: pending.platform,
    platformName: displayName(ctx, pending.platform),
    expiresAt: pending.expiresAt.toISOString(),
    choices: pending.reached.map((a) => ({
      platformAccountId: a.platformAccountId,
      name: a.profile.name,
      ...(a.profile.username ? { username: a.profile.username } : {}),
      ...(a.profile.avatarUrl ? { avatarUrl: a.profile.avatarUrl } : {}),
      ...(a.kind ? { kind: a.kind } : {}),
      connected: connected.has(a.platformAccountId),
    })),
  };
}

/**
 * Saves the picked accounts, one connected account each, and ends the pending connection.
 * Unknown ids are refused (422) so a stale form never connects something else.
 */
export async function pickAccounts(
  ctx: AppContext,
  userId: string,
  platform: string,
  token: string,
  platformAccountIds: string[],
): Promise<AccountView[]> {
  const pending = await loadPending(ctx, userId, token);
  if (!pending || pending.platform !== platform) throw notFound('pending connection');
  const chosen = [...new Set(platformAccountIds)];
  if (chosen.length === 0) {
    throw new ProblemError(
      problem('validation_failed', 'Choose at least one account to connect', {
        errors: [{ path: 'accountIds', code: 'required', message: 'Choose at least one account' }],
      }),
    );
  }
  const unknown = chosen.filter((id) => !pending.reached.some((a) => a.platformAccountId === id));
  if (unknown.length > 0) {
    throw new ProblemError(
      problem('validation_failed', 'Some chosen accounts were not offered by this login', {
        errors: unknown.map((id) => ({
          path: 'accountIds',
          code: 'unknown_account',
          message: id.slice(0, 200),
        })),
      }),
    );
  }
  if (!(await deletePendingConnection(ctx, { tokenHash: pending.tokenHash, userId })))
    throw notFound('pending connection');
  const saved: AccountView[] = [];
  for (const reached of pending.reached) {
    if (chosen.includes(reached.platformAccountId)) saved.push(await save(ctx, userId, platform, reached));
  }
  return saved;
}
