import { subscribableWebhookEvents } from '@postwave/shared';
import type { Metadata } from 'next';
import { timeZones } from '../../../components/lib/time.ts';
import { AssistantConfirmSetting, McpClients } from '../../../components/settings/mcp-clients.tsx';
import { ProfileForm } from '../../../components/settings/profile-form.tsx';
import { SignInMethods } from '../../../components/settings/sign-in-methods.tsx';
import { TokensManager } from '../../../components/settings/tokens-manager.tsx';
import { WebhooksManager } from '../../../components/settings/webhooks-manager.tsx';
import { getContext } from '../../../server/context.ts';
import { listMcpConnections } from '../../../server/oauth/connections.ts';
import { listTokens } from '../../../server/tokens/service.ts';
import { updateProfileAction } from '../../../server/ui/actions.ts';
import { requireUser } from '../../../server/ui/session.ts';
import { configuredProviders, unconfiguredProviders } from '../../../server/users/providers.ts';
import { listSignInMethods } from '../../../server/users/sign-in-methods.ts';
import { listWebhooks } from '../../../server/webhooks/service.ts';
import { getAssistantSettings } from '../../../server/workspaces/assistant-settings.ts';

export const metadata: Metadata = { title: 'Settings' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SettingsPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const ctx = await getContext();
  const params = await searchParams;
  const [tokens, mcpClients, methods, assistantSettings, webhooks] = await Promise.all([
    listTokens(ctx, user.id, user.workspaceId),
    listMcpConnections(ctx, user.id),
    listSignInMethods(ctx, user.id),
    getAssistantSettings(ctx, user.workspaceId),
    listWebhooks(ctx, user.workspaceId),
  ]);
  const zones = timeZones();
  return (
    <div className="page page-narrow">
      <div className="page-head">
        <div>
          <h1>Settings</h1>
          <p>Your profile, API tokens, webhooks and connected apps.</p>
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
      <section className="card" id="assistants" aria-labelledby="mcp-title">
        <div className="card-head">
          <h2 id="mcp-title">Connected AI assistants (MCP)</h2>
        </div>
        <div className="card-body stack">
          <AssistantConfirmSetting enabled={assistantSettings.assistantsMustConfirm} />
          <McpClients clients={mcpClients} timezone={user.timezone} />
        </div>
      </section>
    </div>
  );
}
