import type { Metadata } from 'next';
import { Composer } from '#components/compose/composer.tsx';
import { listAccounts } from '#server/accounts/service.ts';
import { getContext } from '#server/context.ts';
import { submissionsNeedApproval } from '#server/ui/approvals.ts';
import { requireUser } from '#server/ui/session.ts';

export const metadata: Metadata = { title: 'Compose' };

export default async function ComposePage() {
  const user = await requireUser();
  const accounts = await listAccounts(await getContext(), user.workspaceId);
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Compose</h1>
          <p>Write once; each account shows how its platform counts and checks the post.</p>
        </div>
      </div>
      <Composer
        accounts={accounts}
        timezone={user.timezone}
        needsApproval={await submissionsNeedApproval(user)}
      />
    </div>
  );
}
