'use client';

/**
 * What a page says when the server failed to build it (its database did not answer, a bug): that
 * the problem is on the server's side and passing, never "not found". The reference is the digest
 * Next.js logs with the error, so an operator can find it.
 */
export function ServerError({ digest }: { digest?: string | undefined }) {
  return (
    <div role="alert" className="stack">
      <h1>Postwave cannot show this page right now</h1>
      <p>
        The server ran into a problem on its side, for example its database did not answer. Nothing is lost:
        try again in a moment.
      </p>
      {digest && <p className="small muted">Reference for the operator: {digest}</p>}
      <div className="row">
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Try again
        </button>
        <a href="/compose" className="btn btn-ghost">
          Go to Postwave
        </a>
      </div>
    </div>
  );
}
