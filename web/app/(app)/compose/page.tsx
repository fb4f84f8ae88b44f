import type { Metadata } from 'next';
import { Composer } from '#components/compose/composer.tsx';
import { listAccounts } from '#server/accounts/service.ts';
import { getContext } from '#server/context.ts';
import { libraryMediaById } from '#server/media/get-media.ts';
import { requireUser } from '#server/ui/session.ts';

export const metadata: Metadata = { title: 'Compose' };

export default async function ComposePage({
  searchParams,
}: {
  searchParams: Promise<{ media?: string | string[] }>;
}) {
  const user = await requireUser();
  const ctx = await getContext();
  const { media } = await searchParams;
  // "Use in a new post" from the media library: `?media=<id>` (another workspace's id is ignored).
  const mediaIds = (Array.isArray(media) ? media : media ? [media] : []).slice(0, 10);
  const [accounts, initialMedia] = await Promise.all([
    listAccounts(ctx, user.workspaceId),
    Promise.all(mediaIds.map((id) => libraryMediaById(ctx, user.workspaceId, id))),
  ]);
  const attached = initialMedia.flatMap((m) => (m ? [m] : []));
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
        {...(attached.length ? { initialMedia: attached } : {})}
      />
    </div>
  );
}
