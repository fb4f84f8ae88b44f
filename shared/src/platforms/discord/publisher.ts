import { PlatformError } from '../../errors.ts';
import { defaultRequestTimeoutMs, platformFetch, readJson } from '../../http/fetch.ts';
import { extensionFor } from '../../media/kinds.ts';
import type { MediaFile } from '../../media/media-file.ts';
import type { AccountProfile, PlatformAccount, PublishContext, Publisher, PublishResult } from '../types.ts';
import type { DiscordConfig } from './config.ts';
import { discordError } from './errors.ts';
import { discordManifest } from './manifest.ts';
import { type DiscordOptions, discordCredentialsSchema, discordOptionsSchema } from './options.ts';
import { validateDiscordPost } from './validate.ts';
import { parseWebhookUrl, type WebhookRef, webhookEndpoint, webhookUrlHint } from './webhook-url.ts';

/** The parts of Discord's webhook object we use (GET /webhooks/<id>/<token>). */
interface DiscordWebhook {
  id: string;
  name: string | null;
  avatar: string | null;
  channel_id: string;
  guild_id?: string | null;
}

/** The parts of Discord's message object we use (execute with `wait=true`). */
interface DiscordMessage {
  id: string;
  channel_id: string;
  guild_id?: string;
}

const cdnUrl = 'https://cdn.discordapp.com';
const webUrl = 'https://discord.com';
/** Generous time per byte for uploads (about 1 MB/s) on top of the normal timeout. */
const uploadMsPerByte = 1 / 1000;
const maxCachedGuilds = 1000;

export function createDiscordPublisher(config: DiscordConfig): Publisher<DiscordOptions> {
  // Webhook id → guild id, so jump URLs need one webhook lookup per webhook, not per post.
  const guildOfWebhook = new Map<string, string | null>();

  function webhookOf(account: PlatformAccount): WebhookRef {
    const url = account.credentials.webhookUrl;
    const webhook = typeof url === 'string' ? parseWebhookUrl(url, config.apiUrl) : undefined;
    if (!webhook) throw new PlatformError('credentials_invalid', `credentials.webhookUrl ${webhookUrlHint}`);
    return webhook;
  }

  async function getWebhook(webhook: WebhookRef, signal?: AbortSignal): Promise<DiscordWebhook> {
    const response = await platformFetch(webhookEndpoint(config.apiUrl, webhook), { signal });
    if (!response.ok) throw await discordError(response);
    return (await readJson(response)) as DiscordWebhook;
  }

  async function guildIdFor(webhook: WebhookRef, signal: AbortSignal): Promise<string | null> {
    const cached = guildOfWebhook.get(webhook.id);
    if (cached !== undefined) return cached;
    // Only for the message link: the message is already posted, so a failure here must not fail it.
    const guildId = await getWebhook(webhook, signal).then(
      (found) => found.guild_id ?? null,
      () => undefined,
    );
    if (guildId === undefined) return null;
    if (guildOfWebhook.size >= maxCachedGuilds) guildOfWebhook.clear();
    guildOfWebhook.set(webhook.id, guildId);
    return guildId;
  }

  return {
    id: discordManifest.id,
    displayName: discordManifest.name,
    optionsSchema: discordOptionsSchema,
    credentialsSchema: discordCredentialsSchema(config.apiUrl),
    // Discord limits each webhook to about 5 requests per 2 seconds (and an IP to 50 a second):
    // two at once per webhook, twenty across webhooks. 429s are retried after their retry_after.
    concurrency: 20,
    credentialConcurrency: 2,
    // The webhook id is public (it is in the URL without the token); the token is the secret.
    concurrencyKey: (account) => {
      const url = account.credentials.webhookUrl;
      return typeof url === 'string' ? parseWebhookUrl(url, config.apiUrl)?.id : undefined;
    },
    // Discord documents its limits only through response headers; a webhook's bucket is 5
    // requests per 2 seconds (PUBLISH_RATE_DISCORD_WEBHOOK replaces it).
    rateLimits: (account) => {
      const url = account.credentials.webhookUrl;
      const id = typeof url === 'string' ? parseWebhookUrl(url, config.apiUrl)?.id : undefined;
      return id === undefined ? [] : [{ scope: 'webhook', key: id, limit: 5, windowMs: 2000 }];
    },

    async validate(post, account, media) {
      return validateDiscordPost(config, post, account, media);
    },

    // A webhook cannot reply (message_reference is for bots): a thread part (`context.replyTo`) is
    // simply the next message in the channel, sent after its parent. That ordering is the thread.
    async publish(post, account, media, options, context: PublishContext): Promise<PublishResult> {
      const webhook = webhookOf(account);
      const url = webhookEndpoint(config.apiUrl, webhook);
      url.searchParams.set('wait', 'true');
      if (options.threadId) url.searchParams.set('thread_id', options.threadId);

      const payload = {
        content: post.message,
        ...(options.username ? { username: options.username } : {}),
        ...(options.avatarUrl ? { avatar_url: options.avatarUrl } : {}),
        ...(media.length
          ? {
              attachments: media.map((file, id) => ({
                id,
                filename: attachmentName(file),
                // The attachment's `description` is its alt text (up to 1024 characters).
                ...(file.altText ? { description: file.altText } : {}),
              })),
            }
          : {}),
      };
      const totalBytes = media.reduce((sum, file) => sum + file.size, 0);
      const response = await platformFetch(url, {
        method: 'POST',
        ...(media.length
          ? { body: await multipartBody(payload, media) }
          : { body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }),
        signal: context.signal,
        timeoutMs: defaultRequestTimeoutMs + Math.ceil(totalBytes * uploadMsPerByte),
      });
      if (!response.ok) throw await discordError(response);
      const message = (await readJson(response)) as DiscordMessage | undefined;
      if (!message?.id)
        throw new PlatformError('internal', 'Discord accepted the message but returned no id');

      const guildId = message.guild_id ?? (await guildIdFor(webhook, context.signal));
      return {
        platformPostId: message.id,
        ...(guildId ? { url: `${webUrl}/channels/${guildId}/${message.channel_id}/${message.id}` } : {}),
      };
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const webhook = webhookOf(account);
      const found = await getWebhook(webhook, context?.signal);
      if (found.guild_id !== undefined) guildOfWebhook.set(webhook.id, found.guild_id ?? null);
      return {
        name: found.name ?? 'Discord webhook',
        avatarUrl: found.avatar
          ? `${cdnUrl}/avatars/${found.id}/${found.avatar}.png`
          : `${cdnUrl}/embed/avatars/0.png`,
        platformAccountId: found.channel_id,
      };
    },
  };
}

async function multipartBody(payload: object, media: MediaFile[]): Promise<FormData> {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(payload));
  for (const [index, file] of media.entries()) {
    const name = attachmentName(file);
    // Wrapping keeps a file-backed blob lazy while giving it the stored (sniffed) type.
    form.append(`files[${index}]`, new File([await file.blob()], name, { type: file.contentType }));
  }
  return form;
}

/** Discord decides how to show a file (inline image, video player) from its extension. */
function attachmentName(file: MediaFile): string {
  const base = file.filename.replace(/[\\/]/g, '_') || 'file';
  return /\.[A-Za-z0-9]{1,5}$/.test(base) ? base : `${base}.${extensionFor(file.contentType)}`;
}
