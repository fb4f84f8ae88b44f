const labels: Record<string, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  posted: 'Posted',
  failed: 'Failed',
  publishing: 'Publishing',
  unknown: 'Unknown',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{labels[status] ?? status}</span>;
}

const plain: Record<string, string> = {
  credentials_invalid:
    'The platform no longer accepts this account’s credentials. Reconnect the account, then retry.',
  target_unreachable:
    'The bot or app can no longer post there (removed from the chat, or the channel is gone).',
  rate_limited: 'The platform asked us to slow down. Retry in a few minutes.',
  content_rejected: 'The platform refused the content.',
  text_too_long: 'The message is longer than this platform allows.',
  media_rejected: 'The platform refused the media.',
  timeout: 'The platform did not answer in time.',
  network_error: 'The platform could not be reached.',
  account_not_found: 'This account was disconnected.',
  outcome_unknown:
    'Publishing was interrupted (the server stopped mid-send) and this platform cannot tell us whether it arrived. Check the account, then mark it posted or post it again.',
};

/** A sentence a person understands for a per-account failure, keeping the platform's own words. */
export function plainError(error: { code: string; message: string }): { summary: string; detail: string } {
  return { summary: plain[error.code] ?? 'Publishing to this account failed.', detail: error.message };
}
