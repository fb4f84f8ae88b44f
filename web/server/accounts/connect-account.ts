import { zodIssues } from '@postwave/shared';
import { accountCallHint } from '@postwave/shared/error-hints';
import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { specificProblem, validationFailed } from '#server/http/problems.ts';
import { saveAccount } from './save-account.ts';
import type { AccountView } from './schema.ts';
import { verifyAccount } from './verify-account.ts';

export interface ConnectInput {
  platform: string;
  platformAccountId?: string | undefined;
  credentials: Record<string, unknown>;
  label?: string | undefined;
}

/**
 * Connects (or reconnects) an account after the platform confirmed the credentials. One account
 * per user, platform and platform account: connecting the same one again replaces its credentials.
 */
export async function connectAccount(
  ctx: AppContext,
  workspaceId: string,
  input: ConnectInput,
  actor: AuditActor = systemActor,
): Promise<{ account: AccountView }> {
  const publisher = ctx.publishers.get(input.platform);
  if (!publisher) {
    throw validationFailed(`Platform "${input.platform}" is not supported`, [
      {
        path: 'platform',
        code: 'platform_unsupported',
        message: `Supported: ${ctx.publishers.ids().join(', ')}`,
      },
    ]);
  }
  const parsed = publisher.credentialsSchema.safeParse(input.credentials);
  if (!parsed.success) {
    throw specificProblem(
      'credentials_invalid',
      `The credentials do not have the shape ${publisher.displayName} needs`,
      zodIssues(parsed.error).map((i) => ({ ...i, path: `credentials${i.path ? `.${i.path}` : ''}` })),
      accountCallHint({ code: 'credentials_invalid' }, 'connect'),
    );
  }
  const verified = await verifyAccount(ctx, publisher, {
    id: 'unsaved',
    platform: input.platform,
    platformAccountId: input.platformAccountId ?? '',
    credentials: parsed.data,
  });
  const platformAccountId = verified.profile.platformAccountId ?? input.platformAccountId;
  if (!platformAccountId) {
    throw specificProblem(
      'target_unreachable',
      'platformAccountId is required for this platform',
      [
        {
          path: 'platformAccountId',
          code: 'required',
          message: 'Name the chat, channel or account to post to',
        },
      ],
      accountCallHint({ code: 'target_unreachable' }, 'connect'),
    );
  }
  return saveAccount(ctx, workspaceId, {
    platform: input.platform,
    platformAccountId,
    credentials: verified.credentials,
    label: input.label,
    profile: verified.profile,
    actor,
  });
}
