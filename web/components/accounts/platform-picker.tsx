'use client';

import { PlatformMark } from '#components/account-avatar.tsx';
import { type PlatformManifest, platformManifests } from '#components/lib/platforms.ts';

/**
 * One button per platform, from the manifests. An OAuth platform whose server settings are
 * missing stays focusable and says which variables the operator must set.
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
  return (
    <div className="platform-picker">
      {platformManifests.map((manifest) => {
        const { connect } = manifest;
        const unavailable = connect.method === 'oauth' && !oauthConfigured.includes(manifest.id);
        const noteId = `platform-note-${manifest.id}`;
        return (
          <div key={manifest.id} className="stack" style={{ gap: 4 }}>
            <button
              type="button"
              className="platform-option"
              aria-pressed={connect.method === 'credentials' ? selected === manifest.id : undefined}
              aria-disabled={unavailable || undefined}
              aria-describedby={unavailable ? noteId : undefined}
              data-platform={manifest.id}
              onClick={() => {
                if (!unavailable) onPick(manifest);
              }}
            >
              <PlatformMark platform={manifest.id} />
              {connect.method === 'oauth' ? (connect.buttonLabel ?? manifest.name) : manifest.name}
            </button>
            {unavailable && (
              <p className="hint small" id={noteId}>
                {manifest.name} is not set up on this server: set {connect.requiredEnv.join(' and ')}.
              </p>
            )}
          </div>
        );
      })}
    </div>
  );
}
