import { approvalActorOf } from '#server/approvals/actor.ts';
import { decidePosting } from '#server/approvals/policy.ts';
import { actorOf } from '#server/audit/actor.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { idempotent } from '#server/idempotency/idempotency.ts';
import { countImport } from '#server/imports/rate-limit.ts';
import { readImportRequest } from '#server/imports/request.ts';
import { importRoutes } from '#server/imports/routes.ts';
import { importPosts } from '#server/imports/service.ts';

export const runtime = 'nodejs';

export const POST = route(importRoutes.importPosts, async ({ request, ctx, caller }) => {
  countImport(ctx, caller.userId);
  const input = await readImportRequest(request, ctx, caller.workspaceId);
  // Where approvals apply to the importer, scheduled and queued rows become submissions.
  const submitAs = (await decidePosting(ctx, caller)) === 'submit' ? approvalActorOf(caller) : undefined;
  const run = () =>
    importPosts(ctx, caller.workspaceId, {
      format: input.format,
      body: input.text,
      rows: input.rows,
      dryRun: input.dryRun,
      authorId: caller.userId,
      actor: actorOf(caller),
      ...(submitAs ? { submitAs } : {}),
    });
  if (input.dryRun) return json(await run());
  return idempotent(ctx, caller, request, input.fingerprintBody, async () => ({
    status: 200,
    body: await run(),
  }));
});
