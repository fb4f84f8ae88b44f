import type { Metadata } from 'next';
import { MediaLibrary } from '#components/media/media-library.tsx';
import { can } from '#server/auth/permissions.ts';
import { getContext } from '#server/context.ts';
import { listMedia } from '#server/media/list-media.ts';
import { requireUser } from '#server/ui/session.ts';

export const metadata: Metadata = { title: 'Media library' };

export default async function MediaPage() {
  const user = await requireUser();
  const ctx = await getContext();
  const first = await listMedia(ctx, user.workspaceId, { limit: 48 });
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Media library</h1>
          <p>Every file uploaded in this workspace, once: find it, describe it, and use it again.</p>
        </div>
      </div>
      <MediaLibrary
        initial={first}
        canEdit={can(user.role, 'posts.publish')}
        canPost={can(user.role, 'posts.draft')}
      />
    </div>
  );
}
