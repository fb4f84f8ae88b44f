import { errorHint } from '@postwave/shared/error-hints';

/** How a post's or an account's status reads to people: never its raw id (`pending_approval`). */
const labels: Record<string, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  posted: 'Posted',
  failed: 'Failed',
  pending_approval: 'Waiting for approval',
  publishing: 'Publishing',
  unknown: 'Unknown',
};

/** The words for a status; one this list does not know reads as its id with spaces. */
export function statusLabel(status: string): string {
  const words = status.replaceAll('_', ' ');
  return labels[status] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{statusLabel(status)}</span>;
}

/** A sentence a person understands for a per-account failure (its hint), keeping the platform's own words. */
export function plainError(error: { code: string; message: string; hint?: string }): {
  summary: string;
  detail: string;
} {
  return { summary: error.hint ?? errorHint(error.code), detail: error.message };
}
