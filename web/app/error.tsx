'use client';

import { CenteredCard } from '#components/consent-card.tsx';
import { ServerError } from '#components/server-error.tsx';

/** A page outside the app shell (or the shell itself) failed on the server: say so, don't 404. */
export default function RootError({ error }: { error: Error & { digest?: string } }) {
  return (
    <CenteredCard>
      <ServerError digest={error.digest} />
    </CenteredCard>
  );
}
