import type { ReactNode } from 'react';
import { AppNav } from '../../components/app-nav.tsx';
import { Brand } from '../../components/brand.tsx';
import { EscapableDetails } from '../../components/escapable-details.tsx';
import { TimeProvider } from '../../components/lib/time-context.tsx';
import { GettingStarted } from '../../components/notices/getting-started.tsx';
import { VerifyBanner } from '../../components/notices/verify-banner.tsx';
import { OriginWarning } from '../../components/origin-warning.tsx';
import { UploadNotices } from '../../components/upload-notices.tsx';
import { WorkspaceSwitcher } from '../../components/workspace-switcher.tsx';
import { getConfig, getContext } from '../../server/context.ts';
import { resendVerificationAction, signOutAction } from '../../server/ui/actions.ts';
import { isDismissed } from '../../server/ui/dismissed.ts';
import { gettingStartedSteps } from '../../server/ui/getting-started.ts';
import { requestLocale } from '../../server/ui/locale.ts';
import { requireUser } from '../../server/ui/session.ts';
import { switchWorkspaceAction } from '../../server/ui/workspace-actions.ts';
import { workspaceChoices } from '../../server/workspaces/pick.ts';

export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const display = user.name || user.email;
  const workspaces = await workspaceChoices(await getContext(), user.id, user.workspaceId);
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <aside className="sidebar" aria-label="Navigation and account">
        <Brand href="/compose" />
        <WorkspaceSwitcher {...workspaces} switchWorkspace={switchWorkspaceAction} />
        <AppNav />
        <EscapableDetails className="user-menu">
          {/* The visible name and e-mail are the summary's name (WCAG 2.5.3), after a hidden "Account menu". */}
          <summary>
            <span className="sr-only">Account menu: </span>
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
            <a href="/docs">API reference</a>
            <form action={signOutAction}>
              <button type="submit">Sign out</button>
            </form>
          </div>
        </EscapableDetails>
      </aside>
      <main id="main" className="main">
        <OriginWarning appOrigin={new URL(getConfig().appUrl).origin} />
        <UploadNotices />
        {!user.emailVerified && !(await isDismissed('verify-email')) && (
          <VerifyBanner
            email={user.email}
            mailConfigured={Boolean(getConfig().mail)}
            resend={resendVerificationAction}
          />
        )}
        {!(await isDismissed('getting-started')) && (
          <GettingStarted steps={await gettingStartedSteps(await getContext(), user.workspaceId)} />
        )}
        <TimeProvider value={{ timeZone: user.timezone, locale: await requestLocale() }}>
          {children}
        </TimeProvider>
      </main>
    </div>
  );
}
