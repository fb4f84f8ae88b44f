import { ProblemError, platformFetch, problem, readJsonCapped, withDeadline } from '@postwave/shared';
import { and, eq, gt } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { connectStates } from '#server/db/schema.ts';
import { hashSecret, newSecret, pkceChallenge } from '#server/security/tokens.ts';
import type { AccountView } from './schema.ts';
import { saveAccount, verificationProblem } from './service.ts';

/** Platforms connected by OAuth in the browser rather than by pasted credentials. */
export const oauthPlatforms = ['youtube'] as const;

const stateLifetimeMs = 10 * 60 * 1000;
const youTubeScopes = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.readonly',
];

export function callbackUrl(ctx: AppContext, platform: string): string {
  return `${ctx.config.appUrl}/api/v1/accounts/connect/${platform}/callback`;
}

function googleClient(ctx: AppContext): { clientId: string; clientSecret: string } {
  const { clientId, clientSecret } = ctx.config.google;
  if (!clientId || !clientSecret) {
    throw new ProblemError(
      problem(
        'not_supported',
        'YouTube connection needs GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET on the server',
      ),
    );
  }
  return { clientId, clientSecret };
}

/**
 * Starts the Google consent flow: a random state bound to this user (stored hashed, 10 minutes,
 * single use) and a PKCE verifier kept encrypted server-side. Returns the URL to redirect to.
 */
export async function startYouTubeConnect(ctx: AppContext, userId: string): Promise<string> {
  const { clientId } = googleClient(ctx);
  const state = newSecret('', 32);
  const verifier = newSecret('', 48);
  const stateHash = hashSecret(state);
  const now = new Date();
  await ctx.db.insert(connectStates).values({
    stateHash,
    userId,
    platform: 'youtube',
    codeVerifier: ctx.cipher.encrypt(verifier, `connect:${stateHash}`),
    expiresAt: new Date(now.getTime() + stateLifetimeMs),
    createdAt: now,
  });
  const url = new URL(ctx.config.google.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: callbackUrl(ctx, 'youtube'),
    response_type: 'code',
    scope: youTubeScopes.join(' '),
    // A refresh token is only issued for offline access, and only again on forced consent.
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'true',
    state,
    code_challenge: pkceChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

export class ConnectError extends Error {
  override name = 'ConnectError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Finishes the flow: the state must be this user's, unexpired and unused; the code is exchanged
 * with the PKCE verifier; the channel is verified and saved (one account per channel).
 */
export async function finishYouTubeConnect(
  ctx: AppContext,
  userId: string,
  query: URLSearchParams,
): Promise<AccountView> {
  const state = query.get('state');
  if (!state) throw new ConnectError('invalid_state', 'The connection link is missing its state');
  const stateHash = hashSecret(state);
  const [row] = await ctx.db
    .delete(connectStates)
    .where(
      and(
        eq(connectStates.stateHash, stateHash),
        eq(connectStates.userId, userId),
        eq(connectStates.platform, 'youtube'),
        gt(connectStates.expiresAt, new Date()),
      ),
    )
    .returning();
  if (!row)
    throw new ConnectError(
      'invalid_state',
      'The connection link expired or belongs to someone else; start again',
    );
  const denied = query.get('error');
  if (denied)
    throw new ConnectError(
      denied === 'access_denied' ? 'access_denied' : 'provider_error',
      `Google answered: ${denied}`,
    );
  const code = query.get('code');
  if (!code) throw new ConnectError('invalid_request', 'Google did not return an authorization code');

  const { clientId, clientSecret } = googleClient(ctx);
  const verifier = ctx.cipher.decrypt(row.codeVerifier, `connect:${stateHash}`);
  const response = await platformFetch(ctx.config.google.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: callbackUrl(ctx, 'youtube'),
      client_id: clientId,
      client_secret: clientSecret,
      code_verifier: verifier,
    }),
    timeoutMs: 20_000,
  }).catch(() => undefined);
  // Capped like every reply we read (MAX_REPLY_BYTES); a huge or broken body counts as no tokens.
  const tokens = (response ? await readJsonCapped(response).catch(() => undefined) : undefined) as
    | { access_token?: string; refresh_token?: string; expires_in?: number }
    | undefined;
  if (!response?.ok || !tokens?.access_token) {
    throw new ConnectError(
      'token_exchange_failed',
      'Google did not accept the authorization code; try again',
    );
  }
  if (!tokens.refresh_token) {
    throw new ConnectError(
      'no_refresh_token',
      'Google did not grant offline access; remove the app in your Google account and try again',
    );
  }
  const credentials: Record<string, unknown> = {
    refreshToken: tokens.refresh_token,
    clientId,
    clientSecret,
    accessToken: tokens.access_token,
    expiresAt: new Date(Date.now() + (tokens.expires_in ?? 3600) * 1000).toISOString(),
  };
  const publisher = ctx.publishers.get('youtube');
  if (!publisher) throw new ConnectError('platform_unsupported', 'YouTube is not available on this server');
  let current = credentials;
  let profile: Awaited<ReturnType<typeof publisher.verifyCredentials>>;
  const deadline = withDeadline(undefined, 30_000);
  try {
    profile = await publisher.verifyCredentials(
      { id: 'unsaved', platform: 'youtube', platformAccountId: '', credentials },
      {
        signal: deadline.signal,
        onCredentialsRefreshed: (fresh) => {
          current = fresh;
        },
      },
    );
  } catch (error) {
    throw new ConnectError('credentials_invalid', verificationProblem(publisher, error).problem.detail);
  } finally {
    deadline.dispose();
  }
  if (!profile.platformAccountId)
    throw new ConnectError('target_unreachable', 'This Google account has no YouTube channel');
  const { account } = await saveAccount(ctx, userId, {
    platform: 'youtube',
    platformAccountId: profile.platformAccountId,
    credentials: current,
    profile,
  });
  return account;
}
