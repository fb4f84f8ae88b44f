/** The two secrets-bearing parts of a webhook URL. The token must never reach a log or an error. */
export interface WebhookRef {
  id: string;
  token: string;
}

const webhookPath = /^\/api(?:\/v\d+)?\/webhooks\/(\d{15,25})\/([A-Za-z0-9_-]{20,200})\/?$/;

/** Hosts Discord hands out webhook URLs on; all reach the same API. */
const discordAliases = ['discord.com', 'discordapp.com', 'canary.discord.com', 'ptb.discord.com'];

/**
 * Parses `https://discord.com/api/webhooks/<id>/<token>`. Only URLs on the configured API origin
 * (or Discord's own hostnames when that origin is Discord) are accepted, and requests are
 * always sent to the configured origin: a webhook URL can never make us send its token elsewhere.
 */
export function parseWebhookUrl(value: string, apiUrl: string): WebhookRef | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.search || url.hash || url.username || url.password) return undefined;
  if (!allowedOrigins(apiUrl).includes(url.origin)) return undefined;
  const match = url.pathname.match(webhookPath);
  return match ? { id: match[1]!, token: match[2]! } : undefined;
}

function allowedOrigins(apiUrl: string): string[] {
  const api = new URL(apiUrl);
  if (api.protocol === 'https:' && discordAliases.includes(api.hostname)) {
    return discordAliases.map((host) => `https://${host}`);
  }
  return [api.origin];
}

/** The execute / get URL for a webhook on the configured API. */
export function webhookEndpoint(apiUrl: string, webhook: WebhookRef): URL {
  return new URL(`${apiUrl}/api/v10/webhooks/${webhook.id}/${webhook.token}`);
}

export const webhookUrlHint = 'must be a Discord webhook URL: https://discord.com/api/webhooks/<id>/<token>';
