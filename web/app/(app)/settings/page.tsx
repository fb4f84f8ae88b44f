import { subscribableWebhookEvents } from '@postwave/shared';
import type { Metadata } from 'next';
import { timeZones } from '../../../components/lib/time.ts';
import { LinksSettings } from '../../../components/settings/links-settings.tsx';
import { AssistantConfirmSetting, McpClients } from '../../../components/settings/mcp-clients.tsx';
import { McpConnect } from '../../../components/settings/mcp-connect.tsx';
import { ProfileForm } from '../../../components/settings/profile-form.tsx';
import { SignInMethods } from '../../../components/settings/sign-in-methods.tsx';
import { TokensManager } from '../../../components/settings/tokens-manager.tsx';
import { WebhooksManager } from '../../../components/settings/webhooks-manager.tsx';
import { WorkspaceMembers } from '../../../components/settings/workspace-members.tsx';
import {
  CreateWorkspaceForm,
  WorkspaceSettingsForm,
} from '../../../components/settings/workspace-settings.tsx';
import { can } from '../../../server/auth/permissions.ts';
import { getContext } from '../../../server/context.ts';
import { getLinkSettings } from '../../../server/links/get-link-settings.ts';
import { listMcpConnections } from '../../../server/oauth/connections.ts';
import { mcpResource } from '../../../server/oauth/metadata.ts';
import { listTokens } from '../../../server/tokens/service.ts';
import { updateProfileAction } from '../../../server/ui/actions.ts';
import { requireUser } from '../../../server/ui/session.ts';
import { configuredProviders, unconfiguredProviders } from '../../../server/users/providers.ts';
import { listSignInMethods } from '../../../server/users/sign-in-methods.ts';
import { listWebhooks } from '../../../server/webhooks/service.ts';
import { getAssistantSettings } from '../../../server/workspaces/assistant-settings.ts';
import { openInvitationsOf } from '../../../server/workspaces/invitations-repository.ts';
import { findWorkspace, membersOf } from '../../../server/workspaces/repository.ts';
import { settingsOf } from '../../../server/workspaces/view.ts';

export const metadata: Metadata = { title: 'Settings' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SettingsPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const ctx = await getContext();
  const params = await searchParams;
  // What the page shows follows the role table, like the API (docs/workspaces.md#roles).
  const manages = can(user.role, 'workspace.manage');
  const managesMembers = can(user.role, 'members.manage');
  const [tokens, mcpClients, methods, assistantSettings, webhooks, members, invitations, links, workspace] =
    await Promise.all([
      listTokens(ctx, user.id, user.workspaceId),
      listMcpConnections(ctx, user.id),
      listSignInMethods(ctx, user.id),
      getAssistantSettings(ctx, user.workspaceId),
      manages ? listWebhooks(ctx, user.workspaceId) : [],
      membersOf(ctx, user.workspaceId),
      managesMembers ? openInvitationsOf(ctx, user.workspaceId, new Date()) : [],
      manages ? getLinkSettings(ctx, user.workspaceId) : null,
      findWorkspace(ctx, user.workspaceId),
    ]);
  const workspaceSettings = workspace ? settingsOf(workspace) : undefined;
  const zones = timeZones();
  return (
    <div className="page page-narrow">
      <div className="page-head">
        <div>
          <h1>Settings</h1>
          <p>
            Your profile, API tokens, webhooks and connected apps. The HTTP API is described in the{' '}
            <a href="/docs">API reference</a>; assistants connect <a href="#assistants">over MCP</a>.
          </p>
        </div>
      </div>
      <section className="card" aria-labelledby="profile-title">
        <div className="card-head">
          <h2 id="profile-title">Profile</h2>
        </div>
        <div className="card-body">
          <ProfileForm
            name={user.name ?? ''}
            email={user.email}
            timezone={user.timezone}
            zones={zones.includes(user.timezone) ? zones : [user.timezone, ...zones]}
            updateProfile={updateProfileAction}
          />
        </div>
      </section>
      <section className="card" aria-labelledby="sign-in-methods-title" id="sign-in-methods">
        <div className="card-head">
          <h2 id="sign-in-methods-title">Sign-in methods</h2>
        </div>
        <div className="card-body">
          <SignInMethods
            methods={methods}
            providers={configuredProviders(ctx.config)}
            unavailable={unconfiguredProviders(ctx.config).map(({ id, name, requiredEnv }) => ({
              id,
              name,
              requiredEnv,
            }))}
            emailVerified={user.emailVerified}
            linked={typeof params.linked === 'string' ? params.linked : undefined}
            linkError={typeof params.link_error === 'string' ? params.link_error : undefined}
          />
        </div>
      </section>
      <section className="card" id="workspace" aria-labelledby="workspace-title">
        <div className="card-head">
          <h2 id="workspace-title">Workspace: {user.workspaceName}</h2>
        </div>
        <div className="card-body stack">
          {params.deleted === 'workspace' && (
            <p className="alert alert-ok" role="status">
              The workspace was deleted. You are now in {user.workspaceName}.
            </p>
          )}
          {manages && workspaceSettings && (
            <WorkspaceSettingsForm
              key={user.workspaceId}
              workspaceId={user.workspaceId}
              name={user.workspaceName}
              approvals={workspaceSettings.approvals}
              timezone={workspaceSettings.timezone}
              zones={zones}
              isOwner={user.role === 'owner'}
            />
          )}
          <h3 className="section-title">Members</h3>
          <WorkspaceMembers
            mailConfigured={Boolean(ctx.config.mail)}
            workspaceId={user.workspaceId}
            selfId={user.id}
            timezone={user.timezone}
            canManage={managesMembers}
            isOwner={user.role === 'owner'}
            members={members}
            invitations={invitations.map((i) => ({
              id: i.id,
              email: i.email,
              role: i.role,
              expiresAt: i.expiresAt.toISOString(),
            }))}
          />
          {manages && (
            <p className="small" style={{ marginTop: 12 }}>
              <a href="/settings/audit">Audit log</a>: who changed what in this workspace.
            </p>
          )}
          <CreateWorkspaceForm />
        </div>
      </section>
      <section className="card" aria-labelledby="tokens-title">
        <div className="card-head">
          <h2 id="tokens-title">CLI and API tokens</h2>
        </div>
        <div className="card-body">
          <TokensManager
            timezone={user.timezone}
            tokens={tokens.map((t) => ({
              id: t.id,
              name: t.name,
              kind: t.kind,
              createdAt: new Date(t.createdAt).toISOString(),
              lastUsedAt: t.lastUsedAt ? new Date(t.lastUsedAt).toISOString() : null,
              expiresAt: t.expiresAt,
            }))}
          />
        </div>
      </section>
      {manages && (
        <section className="card" id="webhooks" aria-labelledby="webhooks-title">
          <div className="card-head">
            <h2 id="webhooks-title">Webhooks</h2>
          </div>
          <div className="card-body">
            <WebhooksManager
              webhooks={webhooks}
              events={[...subscribableWebhookEvents]}
              timezone={user.timezone}
            />
          </div>
        </section>
      )}
      {links && (
        <section className="card" id="links" aria-labelledby="links-title">
          <div className="card-head">
            <h2 id="links-title">Tracked links</h2>
          </div>
          <div className="card-body">
            <LinksSettings workspaceId={user.workspaceId} initial={links} />
          </div>
        </section>
      )}
      <section className="card" id="assistants" aria-labelledby="mcp-title">
        <div className="card-head">
          <h2 id="mcp-title">Connected AI assistants (MCP)</h2>
        </div>
        <div className="card-body stack">
          <McpConnect mcpUrl={mcpResource(ctx.config.appUrl)} />
          <AssistantConfirmSetting enabled={assistantSettings.assistantsMustConfirm} />
          <McpClients clients={mcpClients} timezone={user.timezone} />
        </div>
      </section>
    </div>
  );
}
