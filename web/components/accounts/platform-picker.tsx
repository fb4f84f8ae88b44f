'use client';

import { PlatformMark } from '#components/account-avatar.tsx';
import { type PlatformManifest, platformManifests } from '#components/lib/platforms.ts';

/**
 * One button per platform this server can connect, from the manifests. OAuth platforms whose
 * server settings are missing are not offered as buttons (they could only fail); a note below
 * names them and the variables the operator sets, with a link to the setup page.
 */
export function PlatformPicker({
  selected,
  oauthConfigured,
  onPick,
}: {
  selected: string | undefined;
  oauthConfigured: readonly string[];
  onPick: (manifest: PlatformManifest) => void;
}) {
  const unavailable = platformManifests.filter(
    (m) => m.connect.method === 'oauth' && !oauthConfigured.includes(m.id),
  );
  const available = platformManifests.filter((m) => !unavailable.includes(m));
  return (
    <div className="stack" style={{ gap: 12 }}>
      <div className="platform-picker">
        {available.map((manifest) => {
          const { connect } = manifest;
          return (
            <button
              key={manifest.id}
              type="button"
              className="platform-option"
              aria-pressed={connect.method === 'credentials' ? selected === manifest.id : undefined}
              data-platform={manifest.id}
              onClick={() => onPick(manifest)}
            >
              <PlatformMark platform={manifest.id} />
              {connect.method === 'oauth' ? (connect.buttonLabel ?? manifest.name) : manifest.name}
            </button>
          );
        })}
      </div>
      {unavailable.length > 0 && (
        <details className="hint small" data-testid="platforms-not-set-up">
          <summary>
            {unavailable.length === 1
              ? 'One more platform needs'
              : `${unavailable.length} more platforms need`}{' '}
            server setup: {unavailable.map((m) => m.name).join(', ')}
          </summary>
          <ul className="setup-list" style={{ marginTop: 8 }}>
            {unavailable.map((m) => (
              <li key={m.id} data-platform-unavailable={m.id}>
                <strong>{m.name}</strong>: the operator sets{' '}
                {m.connect.method === 'oauth' ? m.connect.requiredEnv.join(' and ') : ''} (
                <a href={`/setup#${m.id}`}>how to set it up</a>).
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
