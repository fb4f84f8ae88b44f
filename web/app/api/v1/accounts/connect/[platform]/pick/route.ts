import { ProblemError, problem } from '@postwave/shared';
import { pickAccounts } from '#server/accounts/oauth-picker.ts';
import { accountsRoutes } from '#server/accounts/routes.ts';
import { PickAccountsRequest } from '#server/accounts/schema.ts';
import { actorOf } from '#server/audit/actor.ts';
import { readOptionalJson } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

/**
 * The picker's answer: `pending` (the token of the picker page) and the chosen `accountIds`
 * (platform account ids), as the page's form (answered with a redirect) or as JSON (201).
 */
export const POST = route(
  accountsRoutes.pickOAuthAccounts,
  async ({ request, ctx, caller, params: { platform } }) => {
    const type = request.headers.get('content-type') ?? '';
    if (/^application\/x-www-form-urlencoded/i.test(type)) {
      const form = new URLSearchParams(await request.text());
      const pending = form.get('pending') ?? '';
      const back = new URL('/accounts', ctx.config.appUrl);
      try {
        const saved = await pickAccounts(
          ctx,
          caller.workspaceId,
          platform,
          pending,
          form.getAll('accountIds'),
          actorOf(caller),
        );
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
    // Read with the JSON size limit (413) like every other JSON body; malformed JSON is 400.
    const parsed = PickAccountsRequest.safeParse(await readOptionalJson(request));
    if (!parsed.success)
      throw new ProblemError(problem('invalid_request', 'Send { pending: string, accountIds: string[] }'));
    const saved = await pickAccounts(
      ctx,
      caller.workspaceId,
      platform,
      parsed.data.pending,
      parsed.data.accountIds,
      actorOf(caller),
    );
    return json({ accounts: saved }, 201);
  },
);
