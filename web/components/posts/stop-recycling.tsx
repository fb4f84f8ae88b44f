'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { api, describeError } from '../lib/api.ts';

/** Turns an original's recycling off (`PATCH { recycle: null }`): copies not yet published are removed. */
export function StopRecycling({ postId }: { postId: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const stop = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await api('PATCH', `/api/v1/posts/${postId}`, { recycle: null });
      router.refresh();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="stack" style={{ gap: 6 }}>
      <button
        type="button"
        className="btn btn-sm"
        disabled={busy}
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
