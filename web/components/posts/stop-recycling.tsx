'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ConfirmButton } from '../confirm-button.tsx';
import { api } from '../lib/api.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';

const statusId = 'stop-recycling-status';

/**
 * Turns an original's recycling off (`PATCH { recycle: null }`): copies not yet published are
 * deleted, so it asks first. It stays mounted after the refresh that hides its button (`active`
 * false), so its status, which takes the focus, outlives the button that was pressed.
 */
export function StopRecycling({ postId, active }: { postId: string; active: boolean }) {
  const router = useRouter();
  const focusAfterRender = useFocusAfterRender();
  const [outcome, setOutcome] = useState('');
  return (
    <div className="stack" style={{ gap: 6 }}>
      {active && (
        <>
          <ConfirmButton
            label="Stop repeating"
            title="Stop repeating this post?"
            body="Copies not yet published are deleted; copies already posted stay."
            confirmLabel="Stop repeating"
            onConfirm={async () => {
              await api('PATCH', `/api/v1/posts/${postId}`, { recycle: null });
              setOutcome('Repeating stopped. Copies not yet published were deleted.');
              focusAfterRender(statusId);
              router.refresh();
            }}
          />
          <p className="hint">Copies not yet published are removed; copies already posted stay.</p>
        </>
      )}
      <p id={statusId} className={outcome ? 'alert alert-ok' : 'sr-only'} role="status" tabIndex={-1}>
        {outcome}
      </p>
    </div>
  );
}
