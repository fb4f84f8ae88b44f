import Link from 'next/link';

/** What a not-found page says, in or out of the app's navigation (app/not-found.tsx, app/(app)/not-found.tsx). */
export function NotFoundBody() {
  return (
    <>
      <h1>Nothing here</h1>
      <p className="muted">
        This page does not exist, or what it showed was deleted or belongs to a workspace you are not in.
      </p>
      <p className="row" style={{ flexWrap: 'wrap' }}>
        <Link href="/posts" className="btn btn-primary">
          Go to your posts
        </Link>
        <Link href="/calendar" className="btn">
          Open the calendar
        </Link>
      </p>
    </>
  );
}
