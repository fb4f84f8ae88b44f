import type { ReactNode } from 'react';
import { AppNav } from '../../components/app-nav.tsx';
import { Brand } from '../../components/brand.tsx';
import { signOutAction } from '../../server/ui/actions.ts';
import { requireUser } from '../../server/ui/session.ts';

export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const display = user.name || user.email;
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <aside className="sidebar">
        <Brand href="/compose" />
        <AppNav />
        <details className="user-menu">
          <summary aria-label={`Account menu for ${display}`}>
            <span className="avatar avatar-sm">
              <span className="avatar-fallback" aria-hidden="true">
                {display.slice(0, 1).toUpperCase()}
              </span>
            </span>
            <span className="user-meta">
              <strong>{display}</strong>
              <span>{user.email}</span>
            </span>
          </summary>
          <div className="menu">
            <a href="/settings">Settings</a>
            <form action={signOutAction}>
              <button type="submit">Sign out</button>
            </form>
          </div>
        </details>
      </aside>
      <main id="main" className="main">
        {children}
      </main>
    </div>
  );
}
