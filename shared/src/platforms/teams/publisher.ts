import { createHash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
import { readTextCapped } from '../../http/capped-body.ts';
import { checkUserHost } from '../../http/check-host.ts';
import { postToWebhook, webhookKey } from '../chat-webhook.ts';
import type { AccountProfile, PlatformAccount, Publisher, PublishResult } from '../types.ts';
import { teamsMessage } from './card.ts';
import { connectorRefusal, teamsError } from './errors.ts';
import { teamsManifest } from './manifest.ts';
import { type TeamsOptions, teamsCredentialsSchema, teamsOptionsSchema } from './options.ts';
import { imageOf, validateTeamsPost } from './validate.ts';
import { parseTeamsWebhookUrl, type TeamsWebhook, teamsWebhookHint } from './webhook-url.ts';

/** Teams throttles a webhook past four requests a second. */
const webhookRate = { limit: 4, windowMs: 1000 };

/**
 * Microsoft Teams channels through a Workflows webhook: one Adaptive Card per post, images by
 * our public media URL. The webhook URL is the credential; it goes through the caller's fetch
 * (the SSRF-safe one on the Scheduler) and never into an error or a log line.
 */
export function createTeamsPublisher(): Publisher<TeamsOptions> {
  function webhookOf(account: PlatformAccount): TeamsWebhook {
    const hook = parseTeamsWebhookUrl(account.credentials.webhookUrl);
    if (!hook) throw new PlatformError('credentials_invalid', `credentials.webhookUrl ${teamsWebhookHint}`);
    return hook;
  }

  const keyOf = (account: PlatformAccount): string | undefined => {
    const hook = parseTeamsWebhookUrl(account.credentials.webhookUrl);
    return hook ? webhookKey(hook.url, ['sig']) : undefined;
  };

  return {
    id: teamsManifest.id,
    displayName: teamsManifest.name,
    optionsSchema: teamsOptionsSchema,
    credentialsSchema: teamsCredentialsSchema,
    concurrency: 16,
    credentialConcurrency: 2,
    concurrencyKey: keyOf,
    // PUBLISH_RATE_TEAMS_WEBHOOK replaces it.
    rateLimits: (account) => {
      const key = keyOf(account);
      return key ? [{ scope: 'webhook', key, ...webhookRate }] : [];
    },

    async validate(post, account, media, options) {
      return validateTeamsPost(post, account, media, options);
    },

    async publish(post, account, media, options, context): Promise<PublishResult> {
      const hook = webhookOf(account);
      const response = await postToWebhook(
        hook.url,
        teamsMessage(post.message, media.map(imageOf), options),
        {
          signal: context.signal,
          fetch: context.accountHostFetch,
        },
      );
      if (response.status !== 200 && response.status !== 202) throw await teamsError(response);
      const text = await readTextCapped(response, 64 * 1024).catch(() => '');
      if (hook.kind === 'connector') {
        const refused = connectorRefusal(text);
        if (refused) throw refused;
      }
      // Teams answers without a message id; a Workflows run id names the delivery where there is one.
      const runId = response.headers.get('x-ms-workflow-run-id');
      return {
        platformPostId:
          runId && /^[A-Za-z0-9_-]{1,100}$/.test(runId)
            ? runId
            : `accepted-${createHash('sha256').update(context.idempotencyKey).digest('base64url').slice(0, 22)}`,
      };
    },

    // A webhook cannot be tried without posting: the URL's shape is checked, and its host against
    // the address policy of the fetch that will post to it.
    async verifyCredentials(account, context): Promise<AccountProfile> {
      const hook = webhookOf(account);
      await checkUserHost(context?.accountHostFetch, hook.url);
      const label = account.platformAccountId.trim().slice(0, 200);
      return {
        name: label || 'Teams channel',
        platformAccountId: label || `webhook-${webhookKey(hook.url, ['sig']).slice(0, 12)}`,
      };
    },
  };
}
