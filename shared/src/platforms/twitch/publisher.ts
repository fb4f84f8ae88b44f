import { PlatformError } from '../../errors.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { codePointLength } from '../../text.ts';
import { accountIdIssue, numericId } from '../account-id.ts';
import { digest, RefreshLocks } from '../refreshing-token.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PostContent,
  PublishContext,
  Publisher,
  PublishRateLimit,
  PublishResult,
  ValidationOutcome,
} from '../types.ts';
import { twitchFetch, validateTwitchToken } from './api.ts';
import type { TwitchConfig } from './config.ts';
import { droppedMessage } from './errors.ts';
import { maxMessageLength } from './limits.ts';
import { twitchManifest } from './manifest.ts';
import { type TwitchOptions, twitchCredentialsSchema, twitchOptionsSchema } from './options.ts';
import { twitchCredentials, twitchToken } from './token.ts';

interface SendAnswer {
  data?: {
    message_id?: string;
    is_sent?: boolean;
    drop_reason?: { code?: string; message?: string } | null;
  }[];
}

interface UsersAnswer {
  data?: { id?: string; login?: string; display_name?: string; profile_image_url?: string }[];
}

/** Validation of a chat message: up to 500 characters, text only. Browser-safe. */
export function validateTwitchMessage(post: PostContent, media: readonly MediaInfo[]): ValidationOutcome {
  const outcome: ValidationOutcome = { errors: [], warnings: [] };
  const length = codePointLength(post.message);
  if (length > maxMessageLength)
    outcome.errors.push({
      code: 'text_too_long',
      message: `A Twitch chat message holds ${maxMessageLength} characters; this one has ${length}`,
      path: 'message',
    });
  if (post.message.trim() === '')
    outcome.errors.push({
      code: 'text_required',
      message: 'A Twitch chat message needs text',
      path: 'message',
    });
  if (media.length > 0)
    outcome.errors.push({
      code: 'media_type_unsupported',
      message: 'Twitch chat takes text only; remove the media (or link to it in the text)',
      path: 'media',
    });
  return outcome;
}

/** Sends a chat message to the broadcaster's own chat as the broadcaster (Helix `POST /chat/messages`). */
export class TwitchPublisher implements Publisher<TwitchOptions> {
  readonly id = twitchManifest.id;
  readonly displayName = twitchManifest.name;
  readonly optionsSchema = twitchOptionsSchema;
  readonly credentialsSchema = twitchCredentialsSchema;
  readonly concurrency: number;
  /** A chat message has no idempotency key and cannot be looked up: an unclear send stays `unknown`. */
  readonly dedupe = 'none' as const;
  readonly #config: TwitchConfig;
  readonly #locks = new RefreshLocks();

  constructor(config: TwitchConfig) {
    this.#config = config;
    this.concurrency = config.concurrency;
  }

  /** Twitch lets a broadcaster send 100 chat messages per 30 seconds; its 429 judges by default. */
  rateLimits(account: PlatformAccount): PublishRateLimit[] {
    return [
      {
        scope: 'chat',
        key: digest(`twitch:${account.platformAccountId}`),
        limit: 100,
        windowMs: 30_000,
        enabled: false,
      },
    ];
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
  ): Promise<ValidationOutcome> {
    const outcome = validateTwitchMessage(post, media);
    const id = accountIdIssue(account, numericId, 'Twitch', 'the numeric broadcaster id');
    if (id) outcome.errors.push(id);
    if (!twitchCredentialsSchema.safeParse(account.credentials).success)
      outcome.errors.push({
        code: 'credentials_invalid',
        message: 'Twitch credentials need accessToken, refreshToken and clientId',
        path: 'credentials',
      });
    return outcome;
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    _media: MediaFile[],
    _options: TwitchOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const token = twitchToken(
      twitchCredentials(account),
      this.#config,
      this.#locks,
      context,
      account.currentCredentials,
    );
    const sender = await validateTwitchToken(token, this.#config, context.signal);
    const answer = await twitchFetch<SendAnswer>(token, `${this.#config.apiUrl}/chat/messages`, {
      method: 'POST',
      what: 'the chat message',
      signal: context.signal,
      json: { broadcaster_id: account.platformAccountId, sender_id: sender.user_id, message: post.message },
    });
    const sent = answer.data?.[0];
    if (!sent)
      throw new PlatformError('platform_unavailable', 'Twitch answered the chat message without a result');
    if (sent.is_sent !== true) throw droppedMessage(sent.drop_reason ?? undefined);
    if (typeof sent.message_id !== 'string' || sent.message_id === '')
      throw new PlatformError('platform_unavailable', 'Twitch answered the chat message without its id');
    return {
      platformPostId: sent.message_id,
      url: `https://www.twitch.tv/${encodeURIComponent(sender.login)}`,
    };
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal' | 'onCredentialsRefreshed'>,
  ): Promise<AccountProfile> {
    const token = twitchToken(
      twitchCredentials(account),
      this.#config,
      this.#locks,
      context,
      account.currentCredentials,
    );
    const me = await validateTwitchToken(token, this.#config, context?.signal);
    if (account.platformAccountId && account.platformAccountId !== me.user_id)
      throw new PlatformError(
        'target_unreachable',
        'The Twitch token belongs to another user: messages go to the token owner’s own chat',
      );
    return twitchProfile(token, this.#config, me, context?.signal);
  }
}

/** `GET /helix/users?id=`: the broadcaster's display name and picture. */
export async function twitchProfile(
  token: Parameters<typeof twitchFetch>[0],
  config: TwitchConfig,
  me: { user_id: string; login: string },
  signal: AbortSignal | undefined,
): Promise<AccountProfile> {
  // The profile only dresses the account up: a failed lookup leaves the login as its name.
  const data = await twitchFetch<UsersAnswer>(token, `${config.apiUrl}/users?id=${me.user_id}`, {
    method: 'GET',
    what: 'the profile lookup',
    signal,
  })
    .then((answer) => answer.data)
    .catch((error: unknown) => {
      if (error instanceof PlatformError && error.code === 'needs_reconnect') throw error;
      return undefined;
    });
  const user = data?.find((u) => u.id === me.user_id);
  return {
    name: user?.display_name?.slice(0, 100) || me.login,
    username: me.login,
    ...(user?.profile_image_url && /^https:\/\/\S{1,2000}$/.test(user.profile_image_url)
      ? { avatarUrl: user.profile_image_url }
      : {}),
    platformAccountId: me.user_id,
  };
}
