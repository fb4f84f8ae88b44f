'use client';

import type { CredentialsConnect } from '@postwave/shared/platforms/manifest';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { EmptyState } from '#components/empty-state.tsx';
import {
  type AccountSummary,
  accountName,
  manifestFor,
  type PlatformManifest,
  platformName,
} from '#components/lib/platforms.ts';
import { useFocusAfterRender } from '#components/lib/use-focus-after-render.ts';
import { AccountCard } from './account-card.tsx';
import { ConnectForm } from './connect-form.tsx';
import { PlatformPicker } from './platform-picker.tsx';

type Notice = { kind: 'ok' | 'error' | 'info'; text: string };

export function AccountsManager({
  accounts,
  notice,
  oauthConfigured,
}: {
  accounts: AccountSummary[];
  notice?: Notice;
  /** Ids of the OAuth platforms whose client settings the server has. */
  oauthConfigured: readonly string[];
}) {
  const router = useRouter();
  const [connecting, setConnecting] = useState<{
    manifest: PlatformManifest;
    connect: CredentialsConnect;
    reconnect?: AccountSummary;
  }>();
  const [message, setMessage] = useState(notice);
  const formRef = useRef<HTMLDivElement>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const focusAfterRender = useFocusAfterRender();
  // The control that opened the connect form (a platform button, Reconnect or Update
  // credentials): Cancel gives the focus back to it.
  const opener = useRef<HTMLElement>(null);
  // After a connect, rename or disconnect the control pressed is gone or moved: the outcome takes
  // the focus (the new account's card is one Tab away), so it does not fall to <body>.
  const announce = (next: Notice) => {
    setMessage(next);
    focusAfterRender(messageRef);
  };

  const start = (manifest: PlatformManifest, reconnect?: AccountSummary) => {
    const { connect } = manifest;
    if (connect.method === 'oauth') {
      // A reconnect runs the same flow bound to the account, which it then updates in place.
      if (oauthConfigured.includes(manifest.id))
        window.location.assign(
          reconnect
            ? `${connect.startPath}?accountId=${encodeURIComponent(reconnect.id)}`
            : connect.startPath,
        );
      else
        setMessage({
          kind: 'error',
          text: `${manifest.name} is not set up on this server: set ${connect.requiredEnv.join(' and ')}.`,
        });
      return;
    }
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setConnecting({ manifest, connect, reconnect });
    setMessage(undefined);
    focusAfterRender(() => formRef.current?.querySelector<HTMLElement>('input, select, textarea'));
  };

  const cancel = () => {
    setConnecting(undefined);
    // The opener when it is still there, else the picker's button for the platform.
    const manifestId = connecting?.manifest.id;
    focusAfterRender(() =>
      opener.current?.isConnected
        ? opener.current
        : document.querySelector<HTMLElement>(`.platform-option[data-platform="${manifestId}"]`),
    );
  };

  return (
    <div className="stack" style={{ gap: 24 }}>
      {message && (
        <p className={`alert alert-${message.kind}`} role="status" ref={messageRef} tabIndex={-1}>
          {message.text}
        </p>
      )}
      <section className="card" aria-labelledby="connected-title">
        <div className="card-head">
          <h2 id="connected-title">Connected accounts</h2>
          <span className="muted small">{accounts.length} connected</span>
        </div>
        {accounts.length === 0 ? (
          <EmptyState icon="plus" title="No accounts yet">
            Connect a channel below. Postwave checks the credentials with the platform before saving them.
          </EmptyState>
        ) : (
          <div className="card-body">
            <ul className="account-grid list" aria-label="Connected accounts">
              {accounts.map((account) => {
                const manifest = manifestFor(account.platform);
                return (
                  <AccountCard
                    key={account.id}
                    account={account}
                    onReconnect={manifest ? () => start(manifest, account) : undefined}
                    onChanged={(text, focus = true) => {
                      if (focus) announce({ kind: 'ok', text });
                      else setMessage({ kind: 'ok', text });
                      router.refresh();
                    }}
                  />
                );
              })}
            </ul>
          </div>
        )}
      </section>

      <section className="card" aria-labelledby="connect-title">
        <div className="card-head">
          <h2 id="connect-title">Connect an account</h2>
        </div>
        <div className="card-body stack">
          <PlatformPicker
            selected={connecting?.manifest.id}
            oauthConfigured={oauthConfigured}
            onPick={(manifest) => start(manifest)}
          />
          <div ref={formRef}>
            {connecting && (
              <ConnectForm
                key={`${connecting.manifest.id}-${connecting.reconnect?.id ?? 'new'}`}
                manifest={connecting.manifest}
                connect={connecting.connect}
                reconnect={connecting.reconnect}
                onCancel={cancel}
                onConnected={(account, reconnected) => {
                  setConnecting(undefined);
                  announce({
                    kind: 'ok',
                    text: `${reconnected ? 'Reconnected' : 'Connected'} ${accountName(account)} on ${platformName(account.platform)}.`,
                  });
                  router.refresh();
                }}
              />
            )}
          </div>
        </div>
      </section>
    </div>
  );
}
