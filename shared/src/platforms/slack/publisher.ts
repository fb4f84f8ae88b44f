import { createHash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PublishContext,
  Publisher,
  PublishResult,
  ReplyTarget,
} from '../types.ts';
import { SlackApi } from './api.ts';
import type { SlackConfig } from './config.ts';
import { shareFiles } from './files.ts';
import { slackManifest } from './manifest.ts';
import {
  channelIdPattern,
  type SlackCredentials,
  type SlackOptions,
  slackCredentialsSchema,
  slackOptionsSchema,
} from './options.ts';
import { slackText } from './text.ts';
import { SlackRenewals, SlackToken } from './token.ts';
import { validateSlackPost } from './validate.ts';

/** A message ts as Slack writes it ("1712345678.123456"); anything printable is taken as one. */
const tsPattern = /^[\x21-\x7e]{1,40}$/;
/** A file id (F…): what stands for a file share whose message ts Slack did not tell. */
const fileIdPattern = /^F[A-Z0-9]+$/;

interface ConversationInfo {
  channel?: { id?: string; name?: string; is_archived?: boolean; is_member?: boolean; is_im?: boolean };
}

interface AuthTest {
  team?: string;
  team_id?: string;
  user?: string;
  bot_id?: string;
}

/** Slack through a bot token: chat.postMessage, or the external file upload with the text as its comment. */
export function createSlackPublisher(config: SlackConfig): Publisher<SlackOptions> {
  const renewals = new SlackRenewals();

  function credentialsOf(account: PlatformAccount): SlackCredentials {
    const parsed = slackCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success)
      throw new PlatformError(
        'credentials_invalid',
        'Slack credentials need the botToken (xoxb-…) of the app',
      );
    return parsed.data;
  }

  function apiFor(
    account: PlatformAccount,
    context: Pick<PublishContext, 'signal' | 'onCredentialsRefreshed'> | undefined,
  ): SlackApi {
    const token = new SlackToken({
      credentials: credentialsOf(account),
      config,
      renewals,
      signal: context?.signal,
      onRenewed: context?.onCredentialsRefreshed,
    });
    return new SlackApi(config.apiUrl, token, context?.signal);
  }

  /** A link to the message; the post stands whether or not Slack answers this. */
  async function permalinkOf(api: SlackApi, channel: string, ts: string): Promise<string | undefined> {
    const answer = await api
      .call<{ permalink?: string }>('chat.getPermalink', { channel, message_ts: ts }, 'lookup', {
        read: true,
      })
      .catch(() => undefined);
    return typeof answer?.permalink === 'string' && /^https?:\/\//.test(answer.permalink)
      ? answer.permalink
      : undefined;
  }

  /**
   * Who an account posts as, never the token itself: the workspace (the channels of one install
   * share it), or a digest of the token for accounts-file entries that name no workspace.
   */
  const teamKey = (account: PlatformAccount): string | undefined => {
    const { teamId, botToken } = account.credentials;
    if (typeof teamId === 'string' && teamId) return teamId;
    return typeof botToken === 'string'
      ? createHash('sha256').update(botToken).digest('base64url')
      : undefined;
  };

  return {
    id: slackManifest.id,
    displayName: slackManifest.name,
    optionsSchema: slackOptionsSchema,
    credentialsSchema: slackCredentialsSchema,
    concurrency: 16,
    credentialConcurrency: 4,
    concurrencyKey: teamKey,
    // chat.postMessage allows about one message per second per channel, with short bursts; its
    // 429 and Retry-After remain the safety net (PUBLISH_RATE_SLACK_CHANNEL replaces it).
    rateLimits: (account) =>
      account.platformAccountId
        ? [{ scope: 'channel', key: account.platformAccountId, limit: 1, windowMs: 1000 }]
        : [],

    async validate(post, account, media, options) {
      return validateSlackPost(post, account, media, options, config.maxFileBytes);
    },

    async publish(post, account, media, options, context): Promise<PublishResult> {
      const api = apiFor(account, context);
      const channel = account.platformAccountId;
      const text = slackText(post.message, options.mrkdwn);
      const threadTs = context.replyTo ? threadOf(context.replyTo) : options.threadTs;
      if (media.length > 0) {
        const shared = await shareFiles(api, media, { channel, text, threadTs }, context.signal);
        const permalink = shared.ts ? await permalinkOf(api, channel, shared.ts) : shared.permalink;
        return {
          platformPostId: shared.ts ?? shared.fileIds[0]!,
          ...(permalink ? { url: permalink } : {}),
        };
      }
      const answer = await api.call<{ ts?: string }>(
        'chat.postMessage',
        {
          channel,
          text,
          mrkdwn: options.mrkdwn === true,
          ...(options.unfurlLinks !== undefined ? { unfurl_links: options.unfurlLinks } : {}),
          ...(threadTs ? { thread_ts: threadTs } : {}),
        },
        'message',
      );
      // Posted, but unnamed: not retried, which would post it twice.
      if (typeof answer.ts !== 'string' || !tsPattern.test(answer.ts))
        throw new PlatformError('internal', 'Slack accepted the message but returned no ts', {
          retryable: false,
        });
      const permalink = await permalinkOf(api, channel, answer.ts);
      return { platformPostId: answer.ts, ...(permalink ? { url: permalink } : {}) };
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const api = apiFor(account, context);
      const auth = await api.call<AuthTest>('auth.test', {}, 'lookup');
      const channel = account.platformAccountId;
      if (!channelIdPattern.test(channel)) {
        throw new PlatformError(
          'target_unreachable',
          'Name the Slack channel by its id (C0123456789, in the channel details)',
        );
      }
      // Reading the channel needs channels:read (groups:read for private ones); a token made
      // without them still posts, so their absence only costs the channel's name.
      const info = await api
        .call<ConversationInfo>('conversations.info', { channel }, 'lookup', {
          read: true,
          accept: ['missing_scope', 'unknown_method'],
        })
        .catch((error: unknown) => {
          // Only Slack's word about the channel or the token counts; a lookup that failed otherwise
          // (a proxy without the method) leaves the channel unnamed.
          if (
            error instanceof PlatformError &&
            (error.code === 'target_unreachable' || error.code === 'needs_reconnect')
          )
            throw error;
          return undefined;
        });
      const found = info?.ok ? info.channel : undefined;
      if (found?.is_archived) throw new PlatformError('target_unreachable', 'The Slack channel is archived');
      if (found && found.is_member === false && !found.is_im) {
        throw new PlatformError(
          'target_unreachable',
          `The app is not a member of #${found.name ?? channel}: invite it with /invite @app-name`,
        );
      }
      return {
        name: found?.name ? `#${found.name}` : channel,
        ...(auth.team ? { username: auth.team } : {}),
        platformAccountId: channel,
      };
    },
  };
}

/** Replies go into the thread of the first message (Slack threads have one level). */
function threadOf(replyTo: ReplyTarget): string | undefined {
  const root = replyTo.root.platformPostId;
  return fileIdPattern.test(root) ? undefined : root;
}
