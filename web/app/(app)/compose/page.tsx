import type { Metadata } from 'next';
import Link from 'next/link';
import { Composer, type EditablePost } from '#components/compose/composer.tsx';
import { TemplatePicker } from '#components/compose/template-picker.tsx';
import { listAccounts } from '#server/accounts/list-accounts.ts';
import { can } from '#server/auth/permissions.ts';
import { getContext } from '#server/context.ts';
import { libraryMediaById } from '#server/media/get-media.ts';
import { listSnippets } from '#server/snippets/list-snippets.ts';
import { findOwnTemplate } from '#server/templates/get-template.ts';
import { listTemplates } from '#server/templates/list-templates.ts';
import { submissionsNeedApproval } from '#server/ui/approvals.ts';
import { requireUser } from '#server/ui/session.ts';

export const metadata: Metadata = { title: 'Compose' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ComposePage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const ctx = await getContext();
  const { template: templateId, media } = await searchParams;
  // "Use in a new post" from the media library: `?media=<id>` (another workspace's id is ignored).
  const mediaIds = (Array.isArray(media) ? media : media ? [media] : []).slice(0, 10);
  const [accounts, templates, snippets, chosen, initialMedia] = await Promise.all([
    listAccounts(ctx, user.workspaceId),
    listTemplates(ctx, user.workspaceId),
    listSnippets(ctx, user.workspaceId),
    typeof templateId === 'string' && templateId
      ? findOwnTemplate(ctx, user.workspaceId, templateId)
      : undefined,
    Promise.all(mediaIds.map((id) => libraryMediaById(ctx, user.workspaceId, id))),
  ]);
  const attached = initialMedia.flatMap((m) => (m ? [m] : []));
  // A template's content is where a new post starts; the post is a copy the template never changes.
  const start: EditablePost | undefined = chosen && {
    id: '',
    status: 'draft',
    scheduledAt: null,
    message: chosen.message,
    accountIds: chosen.accountIds,
    media: chosen.media,
    accountOptions: chosen.accountOptions,
    overrides: chosen.overrides,
    thread: chosen.thread,
  };
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Compose</h1>
          <p>Write once; each account shows how its platform counts and checks the post.</p>
        </div>
        <TemplatePicker templates={templates} current={chosen?.id} />
      </div>
      {typeof templateId === 'string' && templateId && (
        <p className={chosen ? 'muted small' : 'alert alert-error'} role={chosen ? undefined : 'alert'}>
          {chosen ? (
            <>
              New post from the template “{chosen.name}”. Changes here do not change the template.{' '}
              <Link href="/compose">Start blank</Link>
            </>
          ) : (
            'That template does not exist any more.'
          )}
        </p>
      )}
      <Composer
        key={chosen?.id ?? 'blank'}
        accounts={accounts}
        timezone={user.timezone}
        template={start}
        snippets={snippets}
        canSaveTemplate={can(user.role, 'workspace.manage')}
        {...(attached.length ? { initialMedia: attached } : {})}
        needsApproval={await submissionsNeedApproval(user)}
      />
    </div>
  );
}
