import { readJsonCapped } from '@postwave/shared/http/capped-body';
import NextAuth, { type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import GitHub from 'next-auth/providers/github';
import Google from 'next-auth/providers/google';
import type { SchedulerConfig } from '#server/config.ts';
import { getConfig, getContext } from '#server/context.ts';
import { AttemptLimiter, BackoffThrottle, processWide } from '#server/security/attempt-limiter.ts';
import { clientAddress } from '#server/security/client-address.ts';
import { sessionUser } from '#server/users/get-user.ts';
import { linkIntentCookie, readLinkIntent } from '#server/users/sign-in-methods.ts';
import {
  linkedUser,
  type ProviderIdentity,
  signInWithIdentity,
} from '#server/users/sign-in-with-identity.ts';
import { normalizeEmail } from '#server/users/sign-up.ts';
import { verifyCredentials } from '#server/users/verify-credentials.ts';
import { sessionWorkspace } from '#server/workspaces/membership.ts';
import { authLogger } from './auth-logger.ts';
import { secureCookiesFor, sessionClaims, sessionMaxAgeSeconds } from './session.ts';

/**
 * Failed sign-ins per (e-mail, client address): five are free, then each failure blocks that pair
 * for 30 s, doubling up to 15 minutes. Keyed on the pair so that nobody can lock a user out from
 * their own address by guessing from another one.
 */
const failedByAccountAndAddress = processWide(
  'sign-in:account+address',
  () => new BackoffThrottle({ freeFailures: 5, baseDelayMs: 30_000, maxDelayMs: 15 * 60 * 1000 }),
);
/** Failed sign-ins per client address, whatever the e-mail: a brake on spraying many accounts. */
const failedByAddress = processWide('sign-in:address', () => new AttemptLimiter(50, 15 * 60 * 1000));

type ForwardedRequest = { headers: Headers } | undefined;

/** GitHub's profile with the primary verified address only (an unverified one proves nothing). */
function gitHubProvider(config: SchedulerConfig['github']) {
  const apiBase = config.baseUrl ? `${config.baseUrl}/api/v3` : 'https://api.github.com';
  return GitHub({
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    ...(config.baseUrl ? { enterprise: { baseUrl: config.baseUrl } } : {}),
    userinfo: {
      url: `${apiBase}/user`,
      async request({ tokens }: { tokens: { access_token?: string } }) {
        const headers = { authorization: `Bearer ${tokens.access_token}`, 'user-agent': 'postwave' };
        // Replies read under the size cap every platform reply has (contract D; MAX_REPLY_BYTES).
        const profile = (await readJsonCapped(await fetch(`${apiBase}/user`, { headers }))) as Record<
          string,
          unknown
        >;
        const response = await fetch(`${apiBase}/user/emails`, { headers });
        const emails = response.ok
          ? ((await readJsonCapped(response)) as { email: string; primary?: boolean; verified?: boolean }[])
          : [];
        const verified = emails.filter((e) => e.verified === true);
        const chosen = verified.find((e) => e.primary) ?? verified[0];
        return { ...profile, email: chosen?.email ?? null, email_verified: chosen !== undefined };
      },
    },
  } as Parameters<typeof GitHub>[0]);
}

function authConfig(request: ForwardedRequest): NextAuthConfig {
  const config = getConfig();
  // Auth.js builds OAuth callback URLs from AUTH_URL, else from whatever host a request names
  // (behind a proxy, Next.js's own host); they must be APP_URL's (the one registered at
  // GitHub/Google) on every path, including sign-ins started from server code (Settings linking).
  process.env.AUTH_URL ??= config.appUrl;
  const providers: NextAuthConfig['providers'] = [
    Credentials({
      credentials: {
        email: { label: 'Email', type: 'email' },
        password: { label: 'Password', type: 'password' },
      },
      async authorize(credentials, signInRequest) {
        const { email, password } = credentials ?? {};
        if (typeof email !== 'string' || typeof password !== 'string') return null;
        // NUL cannot be stored or looked up in PostgreSQL text; no account can match it.
        if (email.includes('\u0000') || password.includes('\u0000')) return null;
        const address = clientAddress(signInRequest, config.trustProxyHops);
        const pair = `${normalizeEmail(email)}\n${address}`;
        // Refused like a wrong password, so the limit reveals nothing about the account.
        if (failedByAccountAndAddress.retryAfterMs(pair) > 0 || failedByAddress.isBlocked(address))
          return null;
        const user = await verifyCredentials(await getContext(), email, password);
        if (!user) {
          failedByAccountAndAddress.fail(pair);
          failedByAddress.record(address);
          return null;
        }
        failedByAccountAndAddress.succeed(pair);
        return { id: user.id, email: user.email, name: user.name };
      },
    }),
  ];
  if (config.github.clientId && config.github.clientSecret) providers.push(gitHubProvider(config.github));
  if (config.google.clientId && config.google.clientSecret) {
    providers.push(Google({ clientId: config.google.clientId, clientSecret: config.google.clientSecret }));
  }
  return {
    secret: config.authSecret,
    trustHost: true,
    logger: authLogger,
    useSecureCookies: secureCookiesFor(config),
    session: { strategy: 'jwt', maxAge: sessionMaxAgeSeconds },
    providers,
    callbacks: {
      async signIn({ account, profile }) {
        if (!account || account.provider === 'credentials') return true;
        const linkTo = await linkingUser(request, config, account.provider);
        const outcome = await signInWithIdentity(
          await getContext(),
          providerIdentity(account.provider, account.providerAccountId, profile),
          linkTo,
        );
        if ('user' in outcome) return true;
        const page = linkTo ? '/settings?link_error=' : '/signin?error=';
        return `${page}${outcome.refused}&provider=${encodeURIComponent(account.provider)}`;
      },
      async jwt({ token, user, account }) {
        if (account && account.provider !== 'credentials') {
          // signIn above has linked or created the identity's user, or refused the sign-in.
          const ours = await linkedUser(await getContext(), account.provider, account.providerAccountId);
          if (!ours) return null;
          token.sub = ours.id;
          token.email = ours.email;
          token.name = ours.name;
          token.picture = undefined;
          token.authTime = Date.now();
          token.workspaceId = (await sessionWorkspace(await getContext(), ours.id)).workspace.id;
        } else if (user?.id) {
          token.sub = user.id;
          token.authTime = Date.now();
          // A new session starts in the user's last chosen workspace and keeps its own from then
          // on: a switch in another browser does not move it (docs/workspaces.md#switching).
          token.workspaceId = (await sessionWorkspace(await getContext(), user.id)).workspace.id;
        }
        return token;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        if (typeof token.authTime === 'number') (session as { authTime?: number }).authTime = token.authTime;
        if (typeof token.workspaceId === 'string')
          (session as { workspaceId?: string }).workspaceId = token.workspaceId;
        return session;
      },
    },
  };
}

function providerIdentity(
  provider: string,
  providerAccountId: string,
  profile: Record<string, unknown> | undefined,
): ProviderIdentity {
  const email = typeof profile?.email === 'string' ? profile.email : undefined;
  // Google says whether it verified the address; our GitHub userinfo keeps only verified ones.
  const emailVerified = profile?.email_verified === true;
  const name = typeof profile?.name === 'string' ? profile.name : null;
  return { provider, providerAccountId, email, emailVerified, name };
}

/**
 * The user who asked, in Settings, to link this provider: a link-intent cookie signed by us,
 * naming the provider, and a current session of that same user. Anything else is a plain sign-in.
 */
async function linkingUser(
  request: ForwardedRequest,
  config: SchedulerConfig,
  provider: string,
): Promise<string | undefined> {
  if (!request) return undefined;
  const cookie = (request.headers.get('cookie') ?? '')
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${linkIntentCookie}=`))
    ?.slice(linkIntentCookie.length + 1);
  const intent = readLinkIntent(config.authSecret, cookie ? decodeURIComponent(cookie) : undefined);
  if (!intent || intent.provider !== provider) return undefined;
  const claims = await sessionClaims(request as Request, config);
  if (claims?.userId !== intent.userId) return undefined;
  const ctx = await getContext();
  return (await sessionUser(ctx, intent.userId, claims.authTime)) ? intent.userId : undefined;
}

export const { handlers, auth, signIn, signOut } = NextAuth((request) => authConfig(request));
