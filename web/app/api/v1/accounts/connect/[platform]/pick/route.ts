import { ProblemError, problem } from '@postwave/shared';
import { requireCaller } from '../../../../../../../server/auth/caller.ts';
import { json } from '../../../../../../../server/http/respond.ts';
import { route } from '../../../../../../../server/http/route.ts';
import { pickAccounts } from '../../../../../../../server/services/oauth-connect.ts';

export const runtime = 'nodejs';

/**
 * The picker's answer: `pending` (the token of the picker page) and the chosen `accountIds`
 * (platform account ids), as the page's form (`application/x-www-form-urlencoded`, answered
 * with a redirect to the accounts page) or as JSON (answered `201 { accounts }`).
 */
export const POST = route<{ platform: string }>(async (request, ctx, { platform }) => {
  const caller = await requireCaller(request, ctx, { sessionOnly: true });
  const type = request.headers.get('content-type') ?? '';
  if (/^application\/x-www-form-urlencoded/i.test(type)) {
    const form = new URLSearchParams(await request.text());
    const pending = form.get('pending') ?? '';
    const back = new URL('/accounts', ctx.config.appUrl);
    try {
      const saved = await pickAccounts(ctx, caller.userId, platform, pending, form.getAll('accountIds'));
      for (const account of saved) back.searchParams.append('connected', account.id);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      if (error.problem.code === 'validation_failed') {
        back.pathname = '/accounts/pick';
        back.searchParams.set('pending', pending);
        back.searchParams.set('error', 'nothing_chosen');
      } else {
        back.searchParams.set('error', 'invalid_state');
        back.searchParams.set('message', 'The choice expired or was already made; connect again');
      }
    }
    return new Response(null, {
      status: 303,
      headers: { location: back.toString(), 'cache-control': 'no-store' },
    });
  }
  if (!/^application\/json/i.test(type))
    throw new ProblemError(problem('unsupported_media_type', 'Send the picker form or JSON'));
  const body = (await request.json().catch(() => undefined)) as
    | { pending?: unknown; accountIds?: unknown }
    | undefined;
  if (
    typeof body?.pending !== 'string' ||
    !Array.isArray(body.accountIds) ||
    !body.accountIds.every((id) => typeof id === 'string')
  ) {
    throw new ProblemError(problem('invalid_request', 'Send { pending: string, accountIds: string[] }'));
  }
  const saved = await pickAccounts(ctx, caller.userId, platform, body.pending, body.accountIds as string[]);
  return json({ accounts: saved }, 201);
});
