import { errorHint } from '@postwave/shared/error-hints';

const labels: Record<string, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  posted: 'Posted',
  failed: 'Failed',
  pending_approval: 'Waiting for approval',
  publishing: 'Publishing',
  unknown: 'Unknown',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{labels[status] ?? status}</span>;
}

/** A sentence a person understands for a per-account failure (its hint), keeping the platform's own words. */
export function plainError(error: { code: string; message: string; hint?: string }): {
  summary: string;
  detail: string;
} {
  return { summary: error.hint ?? errorHint(error.code), detail: error.message };
}
