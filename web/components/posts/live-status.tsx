'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/** What changes on the page: the post's status and each account's result. */
function signature(post: { status: string; results: { accountId: string; status: string }[] }): string {
  return `${post.status}|${post.results.map((r) => `${r.accountId}:${r.status}`).join(',')}`;
}

/**
 * Keeps a scheduled post's page current without a reload (issue 30): it asks for the post every few
 * seconds once it is due (every minute before), and re-renders the page when its status or a result
 * changed, so "Scheduled" turns into "Posted" (or "Failed") by itself. Quiet while the tab is hidden.
 */
export function LiveStatus({
  id,
  status,
  results,
  scheduledAt,
}: {
  id: string;
  status: string;
  results: { accountId: string; status: string }[];
  scheduledAt: string | null;
}) {
  const router = useRouter();
  const shown = signature({ status, results });
  useEffect(() => {
    if (status !== 'scheduled') return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const due = scheduledAt ? new Date(scheduledAt).getTime() : Date.now();
    const next = () => {
      const soon = due - Date.now() < 2 * 60_000;
      timer = setTimeout(check, soon ? 3_000 : 60_000);
    };
    const check = async () => {
      if (stopped) return;
      if (document.visibilityState === 'visible') {
        try {
          const response = await fetch(`/api/v1/posts/${encodeURIComponent(id)}`, { cache: 'no-store' });
          if (response.ok && signature(await response.json()) !== shown) {
            router.refresh();
            return;
          }
        } catch {
          // Offline for a moment: try again on the next tick.
        }
      }
      if (!stopped) next();
    };
    next();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id, status, scheduledAt, shown, router]);
  return null;
}
