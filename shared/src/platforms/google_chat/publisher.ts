import { createHash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
import { checkUserHost } from '../../http/check-host.ts';
import { readJson } from '../../http/fetch.ts';
import { postToWebhook } from '../chat-webhook.ts';
import type { AccountProfile, PlatformAccount, Publisher, PublishResult, ReplyTarget } from '../types.ts';
import { googleChatError } from './errors.ts';
import { googleChatManifest } from './manifest.ts';
import { imageCards } from './message.ts';
import { type GoogleChatOptions, googleChatCredentialsSchema, googleChatOptionsSchema } from './options.ts';
import { imageOf, validateGoogleChatPost } from './validate.ts';
import { type ChatWebhook, chatWebhookHint, parseChatWebhookUrl } from './webhook-url.ts';

interface ChatMessage {
  name?: unknown;
  thread?: { name?: unknown };
}

/** Google Chat documents about one message a second per space for incoming webhooks. */
const spaceRate = { limit: 1, windowMs: 1000 };
/** Resource names (`spaces/…/messages/…`, `spaces/…/threads/…`): printable, bounded. */
const resourceName = /^[\x21-\x7e]{1,300}$/;

/**
 * Google Chat spaces through an incoming webhook: `{ text }` as written, images as a card by
 * our public media URL. The `requestId` comes from the publish's idempotency key, so a resend
 * gets the message Google already created instead of a second one.
 */
export function createGoogleChatPublisher(): Publisher<GoogleChatOptions> {
  function webhookOf(account: PlatformAccount): ChatWebhook {
    const hook = parseChatWebhookUrl(account.credentials.webhookUrl);
    if (!hook) throw new PlatformError('credentials_invalid', `credentials.webhookUrl ${chatWebhookHint}`);
    return hook;
  }

  const spaceOf = (account: PlatformAccount) => parseChatWebhookUrl(account.credentials.webhookUrl)?.space;

  return {
    id: googleChatManifest.id,
    displayName: googleChatManifest.name,
    optionsSchema: googleChatOptionsSchema,
    credentialsSchema: googleChatCredentialsSchema,
    concurrency: 16,
    credentialConcurrency: 1,
    concurrencyKey: spaceOf,
    dedupe: 'idempotent-resend',
    // PUBLISH_RATE_GOOGLE_CHAT_WEBHOOK replaces it.
    rateLimits: (account) => {
      const space = spaceOf(account);
      return space ? [{ scope: 'webhook', key: space, ...spaceRate }] : [];
    },

    async validate(post, account, media) {
      return validateGoogleChatPost(post, account, media);
    },

    async publish(post, account, media, options, context): Promise<PublishResult> {
      const hook = webhookOf(account);
      const url = new URL(hook.url);
      const thread = threadOf(context.replyTo, options.threadKey);
      url.searchParams.set('requestId', requestId(context.idempotencyKey));
      if (thread) url.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
      const cards = imageCards(media.map(imageOf));
      const payload = {
        ...(post.message ? { text: post.message } : {}),
        ...(cards ? { cardsV2: cards } : {}),
        ...(thread ? { thread } : {}),
      };
      const response = await postToWebhook(url, payload, {
        signal: context.signal,
        fetch: context.accountHostFetch,
      });
      if (!response.ok) throw await googleChatError(response);
      const message = (await readJson(response)) as ChatMessage | undefined;
      const name = message?.name;
      if (typeof name !== 'string' || !resourceName.test(name))
        throw new PlatformError(
          'platform_unavailable',
          'Google Chat accepted the message but did not name it',
        );
      const threadNameOf = message?.thread?.name;
      return {
        platformPostId: name,
        ...(typeof threadNameOf === 'string' && resourceName.test(threadNameOf)
          ? { replyRef: threadNameOf }
          : {}),
      };
    },

    // A webhook cannot be tried without posting: the URL's shape is checked (it names the space),
    // and its host against the address policy of the fetch that will post to it.
    async verifyCredentials(account, context): Promise<AccountProfile> {
      const hook = webhookOf(account);
      await checkUserHost(context?.accountHostFetch, hook.url);
      return { name: `Space ${hook.space}`, platformAccountId: hook.space };
    },
  };
}

/** The thread a message joins: a thread part's first message's thread, else the threadKey option. */
function threadOf(replyTo: ReplyTarget | undefined, threadKey: string | undefined): object | undefined {
  const rootThread = replyTo?.root.replyRef;
  if (rootThread && resourceName.test(rootThread)) return { name: rootThread };
  return threadKey ? { threadKey } : undefined;
}

/** A UUID-shaped request id, stable for one publish step (Google recommends a UUID). */
function requestId(idempotencyKey: string): string {
  const hex = createHash('sha256').update(idempotencyKey).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
