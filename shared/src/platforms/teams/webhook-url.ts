import { webhookUrl } from '../chat-webhook-url.ts';

/** A Teams webhook URL, parsed: the URL (the secret) and the kind it is. */
export interface TeamsWebhook {
  url: URL;
  kind: 'workflow' | 'connector';
}

/**
 * Workflows ("Post to a channel when a webhook request is received", Power Automate / Logic
 * Apps): `…/workflows/<id>/triggers/<trigger>/paths/invoke?api-version=…&sp=…&sv=…&sig=…`, on
 * `*.logic.azure.com` or, prefixed with `/powerautomate/automations/direct`, on
 * `*.environment.api.powerplatform.com`.
 */
const workflowPath =
  /^(?:\/powerautomate\/automations\/direct)?\/workflows\/[A-Za-z0-9-]{1,64}\/triggers\/[A-Za-z0-9_.-]{1,80}\/paths\/invoke\/?$/;
/** Office 365 connectors (retired by Microsoft, still accepted): `https://<tenant>.webhook.office.com/webhookb2/…/IncomingWebhook/…`. */
const connectorPath =
  /^\/webhookb?2?\/[^/]+\/IncomingWebhook\/[A-Za-z0-9]+\/[A-Za-z0-9-]+(?:\/[A-Za-z0-9_-]+)?\/?$/;

export const teamsWebhookHint =
  'must be a Teams Workflows webhook URL (…/workflows/<id>/triggers/manual/paths/invoke?…&sig=…) or an incoming webhook URL (https://<tenant>.webhook.office.com/webhookb2/…)';

/** Browser-safe: the URL's shape as Microsoft hands it out; anything else is refused before sending. */
export function parseTeamsWebhookUrl(value: unknown): TeamsWebhook | undefined {
  const url = webhookUrl(value);
  if (!url) return undefined;
  if (workflowPath.test(url.pathname) && url.searchParams.get('sig')) return { url, kind: 'workflow' };
  if (connectorPath.test(url.pathname) && !url.search) return { url, kind: 'connector' };
  return undefined;
}
