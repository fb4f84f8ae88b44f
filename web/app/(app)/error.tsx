'use client';

import { ServerError } from '#components/server-error.tsx';

/** A page inside the app failed on the server: the navigation stays, the page says what happened. */
export default function AppPageError({ error }: { error: Error & { digest?: string } }) {
  return (
    <div className="page page-narrow">
      <ServerError digest={error.digest} />
    </div>
  );
}
