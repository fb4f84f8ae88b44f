/** What each credential-based platform asks for when connecting, and how it maps to the API body. */

export interface ConnectField {
  name: string;
  label: string;
  type?: 'text' | 'password' | 'url';
  placeholder?: string;
  hint?: string;
  required?: boolean;
}

export interface ConnectSpec {
  platform: string;
  intro: string;
  fields: ConnectField[];
  toBody(values: Record<string, string>): {
    platform: string;
    platformAccountId?: string;
    credentials: Record<string, unknown>;
  };
}

export const connectSpecs: Record<string, ConnectSpec> = {
  telegram: {
    platform: 'telegram',
    intro: 'Create a bot with @BotFather, add it as an admin of your channel or group, then paste its token.',
    fields: [
      {
        name: 'botToken',
        label: 'Bot token',
        type: 'password',
        placeholder: '123456789:AA…',
        hint: 'From @BotFather. Stored encrypted; never shown again.',
        required: true,
      },
      {
        name: 'chat',
        label: 'Channel or chat',
        placeholder: '@yourchannel or -1001234567890',
        hint: 'The public @handle, or the numeric id of a private chat.',
        required: true,
      },
    ],
    toBody: (v) => ({
      platform: 'telegram',
      platformAccountId: v.chat!.trim(),
      credentials: { botToken: v.botToken!.trim() },
    }),
  },
  bluesky: {
    platform: 'bluesky',
    intro: 'Use an app password (Settings → Privacy and security → App passwords), not your main password.',
    fields: [
      { name: 'identifier', label: 'Handle', placeholder: 'alice.bsky.social', required: true },
      {
        name: 'appPassword',
        label: 'App password',
        type: 'password',
        placeholder: 'xxxx-xxxx-xxxx-xxxx',
        required: true,
      },
      {
        name: 'service',
        label: 'Server (optional)',
        type: 'url',
        placeholder: 'https://bsky.social',
        hint: 'Only if your account lives on its own PDS.',
      },
    ],
    toBody: (v) => ({
      platform: 'bluesky',
      credentials: {
        identifier: v.identifier!.trim().replace(/^@/, ''),
        appPassword: v.appPassword!.trim(),
        ...(v.service?.trim() ? { service: v.service.trim() } : {}),
      },
    }),
  },
  mastodon: {
    platform: 'mastodon',
    intro:
      'In your server’s Preferences → Development, create an application with the write:statuses and write:media scopes and copy its access token.',
    fields: [
      {
        name: 'instanceUrl',
        label: 'Server',
        type: 'url',
        placeholder: 'https://mastodon.social',
        required: true,
      },
      { name: 'accessToken', label: 'Access token', type: 'password', required: true },
    ],
    toBody: (v) => {
      const raw = v.instanceUrl!.trim();
      return {
        platform: 'mastodon',
        credentials: {
          instanceUrl: /^https?:\/\//.test(raw) ? raw : `https://${raw}`,
          accessToken: v.accessToken!.trim(),
        },
      };
    },
  },
  discord: {
    platform: 'discord',
    intro: 'In the channel’s settings → Integrations → Webhooks, create a webhook and copy its URL.',
    fields: [
      {
        name: 'webhookUrl',
        label: 'Webhook URL',
        type: 'password',
        placeholder: 'https://discord.com/api/webhooks/…',
        required: true,
      },
    ],
    toBody: (v) => ({ platform: 'discord', credentials: { webhookUrl: v.webhookUrl!.trim() } }),
  },
};
