'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { api, describeError } from '../lib/api.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';

/**
 * Turns an original's recycling off (`PATCH { recycle: null }`): copies not yet published are removed.
 * Rendered (empty) while repeating is off, so that once the refresh has removed the button the
 * focus it had moves to the settings line, which then says "Repeating is off."
 */
export function StopRecycling({ postId, active }: { postId: string; active: boolean }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const focusAfterRender = useFocusAfterRender();
  const stop = async () => {
    // aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
    if (busy) return;
    setBusy(true);
    setError(undefined);
    try {
      await api('PATCH', `/api/v1/posts/${postId}`, { recycle: null });
      focusAfterRender(() =>
        document.getElementById('stop-recycling') ? null : document.getElementById('recycle-settings'),
      );
      router.refresh();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  if (!active) return null;
  return (
    <div className="stack" style={{ gap: 6 }}>
      <button
        id="stop-recycling"
        type="button"
        className="btn btn-sm"
        aria-disabled={busy || undefined}
        onClick={stop}
        aria-describedby="stop-recycling-hint"
      >
        {busy ? 'Stopping…' : 'Stop repeating'}
      </button>
      <p className="hint" id="stop-recycling-hint">
        Copies not yet published are removed; copies already posted stay.
      </p>
      {error && (
        <p className="small" role="alert" style={{ color: 'var(--danger)' }}>
          {error}
        </p>
      )}
    </div>
  );
}
