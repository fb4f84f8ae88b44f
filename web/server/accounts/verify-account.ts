import {
  type AccountProfile,
  type AnyPublisher,
  isPlatformError,
  keepingPolicyOf,
  type PlatformAccount,
  ProblemError,
  platformProblem,
  UnsafeUrlError,
  withDeadline,
} from '@postwave/shared';
import { accountCallHint } from '@postwave/shared/error-hints';
import type { AppContext } from '#server/context.ts';

/** Checking an account's credentials with its platform before it is saved, and the answer when that fails. */

export async function verifyAccount(
  ctx: AppContext,
  publisher: AnyPublisher,
  account: PlatformAccount,
): Promise<{ profile: AccountProfile; credentials: Record<string, unknown> }> {
  let credentials = account.credentials;
  const deadline = withDeadline(undefined, 30_000);
  // Whether the check reached a host the user chose (an instance URL, a webhook URL): only then
  // must its answer stay unechoed.
  let reachedUserHost = false;
  const accountHostFetch = keepingPolicyOf(ctx.userUrlFetch, (input, init) => {
    reachedUserHost = true;
    return ctx.userUrlFetch(input, init);
  });
  try {
    const profile = await publisher.verifyCredentials(account, {
      signal: deadline.signal,
      accountHostFetch,
      onCredentialsRefreshed: (fresh) => {
        credentials = fresh;
      },
    });
    return { profile, credentials };
  } catch (error) {
    // A credential that is a URL (a webhook, an instance) names a host the user chose, even where
    // the check only resolved it.
    const namesUrl = Object.values(account.credentials).some(
      (value) => typeof value === 'string' && /^\s*(https?|wss?):\/\//i.test(value),
    );
    throw verificationProblem(publisher, error, reachedUserHost || namesUrl);
  } finally {
    deadline.dispose();
  }
}

/**
 * The answer to a failed check. Where the check reached a host the user chose (`userHost`), in
 * fixed words: that host may be any address a user typed, so nothing it replied is echoed, and a
 * closed port, a timeout and a server that is not the platform all answer the same 422 (the codes
 * must not map someone else's network); only a host the policy refuses says why, since that
 * reveals nothing about the host. Where every host was the operator's (the platform's own API),
 * the platform's own words say what to fix ("Telegram cannot find @nosuchchat: …"). Either way
 * the problem and its issue carry a `hint` (contract F); for a user's host it is the fixed one of
 * `target_unreachable`, so it tells no more than the words do.
 */
export function verificationProblem(publisher: AnyPublisher, error: unknown, userHost = true): ProblemError {
  if (!isPlatformError(error)) throw error;
  const name = publisher.displayName;
  if (error.code === 'credentials_invalid' || error.code === 'needs_reconnect') {
    const message = `${name} rejected the credentials`;
    return new ProblemError(
      platformProblem('credentials_invalid', message, { hint: accountCallHint(error, 'connect') }),
    );
  }
  const refused = error.cause instanceof UnsafeUrlError && error.code === 'target_unreachable';
  const ownWords = refused || (!userHost && error.code === 'target_unreachable');
  const message = ownWords
    ? error.message
    : `No ${name} server could be reached at that address, or it did not answer like one`;
  const hint = accountCallHint(userHost && !refused ? { code: 'target_unreachable' } : error, 'connect');
  return new ProblemError(
    platformProblem('target_unreachable', `${name} cannot reach that target: ${message}`, { hint, message }),
  );
}
