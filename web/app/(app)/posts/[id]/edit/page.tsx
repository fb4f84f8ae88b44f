import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { Composer } from '#components/compose/composer.tsx';
import { Icon } from '#components/icons.tsx';
import { listAccounts } from '#server/accounts/list-accounts.ts';
import { can } from '#server/auth/permissions.ts';
import { getContext } from '#server/context.ts';
import { getPost } from '#server/posts/get-post.ts';
import { listSnippets } from '#server/snippets/list-snippets.ts';
import { submissionsNeedApproval } from '#server/ui/approvals.ts';
import { foundOr404 } from '#server/ui/not-found.ts';
import { requireUser } from '#server/ui/session.ts';

export const metadata: Metadata = { title: 'Edit post' };

export default async function EditPostPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  const { id } = await params;
  const ctx = await getContext();
  const post = await foundOr404(getPost(ctx, user.workspaceId, id));
  if (post.status === 'posted') redirect(`/posts/${post.id}`);
  const [accounts, snippets] = await Promise.all([
    listAccounts(ctx, user.workspaceId),
    listSnippets(ctx, user.workspaceId),
  ]);
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <p className="small">
            <Link href={`/posts/${post.id}`} className="icon-link">
              <Icon name="arrowLeft" size={16} />
              Back to the post
            </Link>
          </p>
          <h1 style={{ marginTop: 6 }}>Edit post</h1>
        </div>
      </div>
      <Composer
        accounts={accounts}
        timezone={user.timezone}
        post={post}
        snippets={snippets}
        canSaveTemplate={can(user.role, 'workspace.manage')}
        needsApproval={await submissionsNeedApproval(user)}
      />
    </div>
  );
}
