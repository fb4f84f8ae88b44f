/** Shapes the webhook settings components share (as the API answers them). */

export interface WebhookRow {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  previousSecretExpiresAt: string | null;
}

export interface Attempt {
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface Delivery {
  id: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  attemptLog: Attempt[];
}

/** What each event means, for the checkboxes. */
export const eventHelp: Record<string, string> = {
  'post.published': 'A post went out to every account',
  'post.partially_published': 'A post went out to some accounts and failed on others',
  'post.failed': 'A post failed on every account',
  'post.unknown': 'Whether a post went out could not be told',
  'post.at_risk': 'A scheduled post may fail: the check before its time found a problem',
  'post.submitted': 'A post was submitted for approval',
  'post.approved': 'A submitted post was approved',
  'post.rejected': 'A submitted post was sent back with a comment',
  'account.needs_reconnect': 'An account must be connected again',
  'account.disconnected': 'An account was removed',
};

export function attemptSummary(a: Attempt | undefined): string {
  if (!a) return 'Not tried yet';
  return `${a.statusCode ? `HTTP ${a.statusCode}` : (a.error ?? 'No answer')} · ${a.durationMs} ms`;
}
