import { webhookUrl } from '../chat-webhook-url.ts';
import { isPublicMediaUrl } from '../public-media-url.ts';

/** A Google Chat incoming webhook, parsed: the URL (key and token are its secret) and its space. */
export interface ChatWebhook {
  url: URL;
  space: string;
}

const messagesPath = /^\/v1\/spaces\/([A-Za-z0-9_-]{1,64})\/messages$/;

export const chatWebhookHint =
  'must be a Google Chat webhook URL: https://chat.googleapis.com/v1/spaces/<space>/messages?key=…&token=…';

/**
 * Browser-safe: `https://chat.googleapis.com/v1/spaces/{space}/messages?key=…&token=…`, as
 * "Apps & integrations → Webhooks" copies it. A public host other than chat.googleapis.com is
 * refused, so the key and token only ever go to Google (or to a host on the operator's own
 * network, which the Scheduler reaches only when ALLOW_PRIVATE_HOSTS names it).
 */
export function parseChatWebhookUrl(value: unknown): ChatWebhook | undefined {
  const url = webhookUrl(value);
  if (!url) return undefined;
  if (isPublicMediaUrl(url.toString()) && url.host !== 'chat.googleapis.com') return undefined;
  const space = messagesPath.exec(url.pathname)?.[1];
  if (!space || !url.searchParams.get('key') || !url.searchParams.get('token')) return undefined;
  return { url, space };
}
