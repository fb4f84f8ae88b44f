import type { ReactNode } from 'react';
import { Brand } from './brand.tsx';

/** The centered card every standalone page uses: sign-in, sign-up, CLI and MCP consent. */
export function CenteredCard({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <main className="auth-page">
      <div className="auth-card" style={wide ? { maxWidth: 520 } : undefined}>
        <Brand />
        {children}
      </div>
    </main>
  );
}

/**
 * An Approve / Deny decision posted as a plain form (works without JavaScript). `hidden` carries
 * the request's parameters (state, code challenge, ...); the button pressed is sent as
 * `decision=approve|deny`.
 */
export function ConsentForm({
  action,
  title,
  description,
  permissions,
  hidden,
  approveLabel = 'Approve',
  denyLabel = 'Deny',
  signedInAs,
  children,
}: {
  action: string | ((form: FormData) => void | Promise<void>);
  title: string;
  description: ReactNode;
  permissions?: string[];
  hidden: Record<string, string>;
  approveLabel?: string;
  denyLabel?: string;
  /** The account that is granting access, shown above the buttons. */
  signedInAs?: string;
  /** Further explanation between the permissions and the buttons. */
  children?: ReactNode;
}) {
  return (
    <form action={action} method="post" className="stack">
      <header className="stack" style={{ gap: 6 }}>
        <h1>{title}</h1>
        <p className="muted">{description}</p>
      </header>
      {permissions && permissions.length > 0 && (
        <div className="stack" style={{ gap: 8 }}>
          <p className="label">It will be able to:</p>
          <ul className="consent-list">
            {permissions.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      {children}
      {signedInAs && (
        <p className="consent-who">
          Signed in as <strong>{signedInAs}</strong>
        </p>
      )}
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="consent-actions">
        <button type="submit" name="decision" value="deny" className="btn">
          {denyLabel}
        </button>
        <button type="submit" name="decision" value="approve" className="btn btn-primary">
          {approveLabel}
        </button>
      </div>
    </form>
  );
}

/** A standalone page's error: what went wrong and what to do next. */
export function ErrorCard({ title, message }: { title: string; message: string }) {
  return (
    <CenteredCard>
      <div role="alert" className="stack" style={{ gap: 6 }}>
        <h1>{title}</h1>
        <p className="muted">{message}</p>
      </div>
      <a href="/compose" className="btn btn-block">
        Go to Postwave
      </a>
    </CenteredCard>
  );
}
