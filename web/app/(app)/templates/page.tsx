import type { Metadata } from 'next';
import { SnippetsManager } from '#components/library/snippets-manager.tsx';
import { TemplatesManager } from '#components/library/templates-manager.tsx';
import { listAccounts } from '#server/accounts/list-accounts.ts';
import { can } from '#server/auth/permissions.ts';
import { getContext } from '#server/context.ts';
import { listSnippets } from '#server/snippets/list-snippets.ts';
import { listTemplates } from '#server/templates/list-templates.ts';
import { requireUser } from '#server/ui/session.ts';

export const metadata: Metadata = { title: 'Templates and snippets' };

/** Templates and snippets (docs/library.md): every member reads them, owners and admins change them. */
export default async function TemplatesPage() {
  const user = await requireUser();
  const ctx = await getContext();
  const [templates, snippets, accounts] = await Promise.all([
    listTemplates(ctx, user.workspaceId),
    listSnippets(ctx, user.workspaceId),
    listAccounts(ctx, user.workspaceId),
  ]);
  const canManage = can(user.role, 'workspace.manage');
  return (
    <div className="page page-narrow">
      <div className="page-head">
        <div>
          <h1>Templates &amp; snippets</h1>
          <p>
            Start posts from templates, and insert signatures, hashtag groups and text while you write (type{' '}
            <kbd>/</kbd> in the message).
            {!canManage && ' Owners and admins of the workspace change them.'}
          </p>
        </div>
      </div>
      <section className="card" aria-labelledby="templates-title">
        <div className="card-head">
          <h2 id="templates-title">Templates</h2>
        </div>
        <div className="card-body">
          <TemplatesManager templates={templates} accounts={accounts} canManage={canManage} />
        </div>
      </section>
      <section className="card" aria-labelledby="snippets-title">
        <div className="card-head">
          <h2 id="snippets-title">Snippets</h2>
        </div>
        <div className="card-body">
          <SnippetsManager snippets={snippets} accounts={accounts} canManage={canManage} />
        </div>
      </section>
    </div>
  );
}
