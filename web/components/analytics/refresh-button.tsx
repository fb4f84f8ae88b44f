'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { api, describeError } from '#components/lib/api.ts';

/** Collects a post's figures now (at most once per 5 minutes per post), then shows them. */
export function RefreshMetricsButton({ postId }: { postId: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  async function refresh() {
    // aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
    if (busy) return;
    setBusy(true);
    setMessage('');
    try {
      await api<unknown>('POST', `/api/v1/posts/${postId}/metrics/refresh`);
      setMessage('Figures updated.');
      router.refresh();
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="row">
      <button type="button" className="btn btn-sm" onClick={refresh} aria-disabled={busy || undefined}>
        {busy ? 'Refreshing…' : 'Refresh figures'}
      </button>
      <p className="small muted" role="status" aria-live="polite">
        {message}
      </p>
    </div>
  );
}
