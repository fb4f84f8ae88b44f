import {
  fetchOptionChoices,
  isPlatformError,
  type OptionChoice,
  OptionChoicesCache,
  type OptionChoicesLoader,
  optionChoicesKey,
  type PlatformAccount,
  ProblemError,
  platformProblem,
  problem,
  withDeadline,
} from '@postwave/shared';
import { accountCallHint } from '@postwave/shared/error-hints';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { AttemptLimiter, processWide } from '#server/security/attempt-limiter.ts';
import { saveRefreshedCredentials, toPlatformAccount } from './credentials.ts';
import { markAccountRefused } from './health.ts';
import { getAccountRow } from './list-accounts.ts';

/*
 * Choices an option field loads from the platform for one account (`OptionField.choicesFrom`:
 * boards, flairs, privacy levels), for the composer's searchable select and for validation.
 * Documented in the OpenAPI entry `listOptionChoices` and docs/platforms/README.md.
 */

/** Boards and flairs change rarely; a new one shows within a minute. */
const cacheMs = 60 * 1000;
const timeoutMs = 10_000;
/** Per user, asks that reach the platform (cached answers are free). */
const perUserLimit = 60;
const limitWindowMs = 60 * 1000;

const cache = processWide('option-choices:cache', () => new OptionChoicesCache({ ttlMs: cacheMs }));
const asksByUser = processWide('option-choices:user', () => new AttemptLimiter(perUserLimit, limitWindowMs));

/**
 * The Scheduler's loader, used by the route and by validation alike: cached per account, field
 * and `dependsOn` value; credentials the publisher renews meanwhile are stored (on the account's
 * grant where it has one); a refused token marks the account `needs_reconnect`, as a publish does.
 */
export function optionChoicesLoader(ctx: AppContext): OptionChoicesLoader {
  return ({ publisher, account, field, values }) =>
    cache.get(optionChoicesKey(account, field, values), async () => {
      const deadline = withDeadline(undefined, timeoutMs);
      try {
        return await fetchOptionChoices(publisher, account, field, values, {
          signal: deadline.signal,
          logger: ctx.logger,
          accountHostFetch: ctx.userUrlFetch,
          onCredentialsRefreshed: (fresh) => saveRefreshedCredentials(ctx, account.id, fresh),
        });
      } catch (error) {
        if (
          isPlatformError(error) &&
          (error.code === 'needs_reconnect' || error.code === 'credentials_invalid')
        )
          await markAccountRefused(ctx, account.id, account.platform);
        throw error;
      } finally {
        deadline.dispose();
      }
    });
}

/**
 * `GET /api/v1/accounts/{id}/options/{field}`: the field's choices for one of the user's
 * accounts. 404 for another user's account, a field without `choicesFrom`, or a platform that
 * loads none; the `dependsOn` field's value comes from the query.
 */
export async function listOptionChoices(
  ctx: AppContext,
  workspaceId: string,
  accountId: string,
  fieldName: string,
  query: URLSearchParams,
): Promise<{ choices: OptionChoice[] }> {
  const row = await getAccountRow(ctx, workspaceId, accountId);
  if (!row) throw notFound('account');
  const publisher = ctx.publishers.get(row.platform);
  const field = ctx.publishers.traits(row.platform).options?.find((f) => f.name === fieldName);
  if (!publisher?.optionChoices || !field?.choicesFrom)
    throw notFound('option with choices from the platform');
  if (row.status === 'needs_reconnect') {
    throw new ProblemError(
      platformProblem(
        'credentials_invalid',
        `${publisher.displayName} refused this account's credentials; reconnect it first`,
        { hint: accountCallHint({ code: 'needs_reconnect' }, 'account') },
      ),
    );
  }
  const dependsOn = field.choicesFrom.dependsOn;
  const depended = dependsOn ? query.get(dependsOn) : null;
  const values = dependsOn && depended ? { [dependsOn]: depended.slice(0, 500) } : {};
  let account: PlatformAccount;
  try {
    account = await toPlatformAccount(ctx, row);
  } catch {
    // Unreadable with the current keys (see docs/scheduler.md, key rotation): only a reconnect helps.
    throw new ProblemError(
      platformProblem('credentials_invalid', 'The stored credentials cannot be read; reconnect the account', {
        hint: accountCallHint({ code: 'needs_reconnect' }, 'account'),
      }),
    );
  }
  if (!cache.has(optionChoicesKey(account, field, values)) && !asksByUser.tryAttempt(workspaceId)) {
    throw new ProblemError(
      problem('rate_limited', 'Too many choice lists asked for. Wait a minute and try again.'),
      {
        'retry-after': String(limitWindowMs / 1000),
      },
    );
  }
  try {
    return { choices: await optionChoicesLoader(ctx)({ publisher, account, field, values }) };
  } catch (error) {
    throw choicesProblem(publisher.displayName, error);
  }
}

/**
 * A platform failure as the route answers it; nothing the platform said is passed on verbatim,
 * and each answer carries a hint (contract F).
 */
function choicesProblem(name: string, error: unknown): unknown {
  if (!isPlatformError(error)) return error;
  const refusal = { hint: accountCallHint(error, 'account') };
  if (error.code === 'needs_reconnect' || error.code === 'credentials_invalid') {
    return new ProblemError(
      platformProblem(
        'credentials_invalid',
        `${name} refused this account's credentials; reconnect the account`,
        refusal,
      ),
    );
  }
  if (error.code === 'rate_limited') {
    const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? limitWindowMs) / 1000));
    return new ProblemError(
      platformProblem('rate_limited', `${name} asks to wait before listing choices again`, refusal),
      { 'retry-after': String(seconds) },
    );
  }
  if (error.code === 'target_unreachable') {
    return new ProblemError(
      platformProblem('target_unreachable', `${name} cannot reach this account's target`, refusal),
    );
  }
  // One fixed hint for every other failure: which one it was (a timeout, a closed port) stays unsaid.
  const hint = accountCallHint({ code: 'network_error' }, 'account');
  return new ProblemError(
    platformProblem('publish_failed', `${name} could not be reached; try again`, { hint }),
  );
}
