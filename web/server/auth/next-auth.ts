import NextAuth, { type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import GitHub from 'next-auth/providers/github';
import Google from 'next-auth/providers/google';
import { getConfig, getContext } from '../context.ts';
import { AttemptLimiter, clientAddress } from '../security/attempt-limiter.ts';
import { normalizeEmail, userForIdentity, verifyCredentials } from '../services/users.ts';
import { secureCookiesFor, sessionMaxAgeSeconds } from './session.ts';

/** Failed sign-ins per account and per client address in 15 minutes before sign-in is refused for a while. */
const failedByAccount = new AttemptLimiter(10, 15 * 60 * 1000);
const failedByAddress = new AttemptLimiter(50, 15 * 60 * 1000);

function authConfig(): NextAuthConfig {
  const config = getConfig();
  const providers: NextAuthConfig['providers'] = [
    Credentials({
      credentials: {
        email: { label: 'Email', type: 'email' },
        password: { label: 'Password', type: 'password' },
      },
      async authorize(credentials, request) {
        const { email, password } = credentials ?? {};
        if (typeof email !== 'string' || typeof password !== 'string') return null;
        // NUL cannot be stored or looked up in PostgreSQL text; no account can match it.
        if (email.includes('\u0000') || password.includes('\u0000')) return null;
        const accountKey = normalizeEmail(email);
        const addressKey = clientAddress(request);
        // Refused like a wrong password, so the limit reveals nothing about the account.
        if (failedByAccount.isBlocked(accountKey) || failedByAddress.isBlocked(addressKey)) return null;
        const user = await verifyCredentials(await getContext(), email, password);
        if (!user) {
          failedByAccount.record(accountKey);
          failedByAddress.record(addressKey);
          return null;
        }
        failedByAccount.reset(accountKey);
        return { id: user.id, email: user.email, name: user.name };
      },
    }),
  ];
  if (config.github.clientId && config.github.clientSecret) {
    providers.push(GitHub({ clientId: config.github.clientId, clientSecret: config.github.clientSecret }));
  }
  if (config.google.clientId && config.google.clientSecret) {
    providers.push(Google({ clientId: config.google.clientId, clientSecret: config.google.clientSecret }));
  }
  return {
    secret: config.authSecret,
    trustHost: true,
    useSecureCookies: secureCookiesFor(config),
    session: { strategy: 'jwt', maxAge: sessionMaxAgeSeconds },
    providers,
    callbacks: {
      async signIn({ account, profile }) {
        if (!account || account.provider === 'credentials') return true;
        return (await oauthUser(account.provider, account.providerAccountId, profile)) !== undefined;
      },
      async jwt({ token, user, account, profile }) {
        if (account && account.provider !== 'credentials') {
          const ours = await oauthUser(account.provider, account.providerAccountId, profile);
          if (ours) {
            token.sub = ours.id;
            token.email = ours.email;
            token.name = ours.name;
            token.authTime = Date.now();
          }
        } else if (user?.id) {
          token.sub = user.id;
          token.authTime = Date.now();
        }
        return token;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        if (typeof token.authTime === 'number') (session as { authTime?: number }).authTime = token.authTime;
        return session;
      },
    },
  };
}

async function oauthUser(
  provider: string,
  providerAccountId: string,
  profile: Record<string, unknown> | undefined,
) {
  const email = typeof profile?.email === 'string' ? profile.email : undefined;
  // Google says whether it verified the address; GitHub only exposes verified addresses.
  const emailVerified = provider === 'google' ? profile?.email_verified === true : provider === 'github';
  const name = typeof profile?.name === 'string' ? profile.name : null;
  return userForIdentity(await getContext(), { provider, providerAccountId, email, emailVerified, name });
}

export const { handlers, auth, signIn, signOut } = NextAuth(authConfig);
