import { isUnclearOutcome, PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { RefreshLocks } from '../refreshing-token.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PublishContext,
  Publisher,
  PublishResult,
  StagedMedia,
} from '../types.ts';
import { xFetch } from './api.ts';
import type { XConfig } from './config.ts';
import { setXAltText, uploadXMedia } from './media.ts';
import { xAccountMetrics, xMetricsBatchSize, xPostMetrics } from './metrics.ts';
import { type XCredentials, type XOptions, xCredentialsSchema, xOptionsSchema } from './options.ts';
import { type XAccessToken, xToken } from './token.ts';
import { validateXPost } from './validate.ts';

interface UserAnswer {
  data?: { id?: string; name?: string; username?: string; profile_image_url?: string };
}

/** Uploaded media ids, kept for retries of the same publish (X keeps them usable for a day). */
interface UploadedMedia {
  id: string;
  expires: number;
}
const uploadedTtlMs = 60 * 60_000;
/** X keeps uploaded media 24 h; an hour less leaves room for a late dispatch. */
const stagedTtlMs = 23 * 60 * 60_000;
const maxUploadedEntries = 2_000;

/**
 * Posts to X through API v2 with OAuth 2.0 user tokens: media through upload v2, then
 * `POST /2/tweets`. Tokens are refreshed (and rotated refresh tokens handed back) when expired
 * or refused, one refresh at a time per account.
 */
export function createXPublisher(config: XConfig): Publisher<XOptions> {
  const locks = new RefreshLocks();
  const uploaded = new Map<string, UploadedMedia>();
  /** Publishes whose post request got no clear answer (timeout, dropped connection, 5xx), by idempotency key. */
  const unclear = new Map<string, number>();

  function rememberUnclear(key: string): void {
    const now = Date.now();
    for (const [k, at] of unclear) if (now - at > uploadedTtlMs) unclear.delete(k);
    if (unclear.size < maxUploadedEntries) unclear.set(key, now);
  }

  /** The account's recent post with this text, when X already created it during an attempt we lost the answer of. */
  async function findRecentPost(
    account: PlatformAccount,
    token: XAccessToken,
    text: string,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const url = `${config.apiUrl}/2/users/${encodeURIComponent(account.platformAccountId)}/tweets?max_results=5`;
    try {
      const { data } = await xFetch<{ data?: { id?: string; text?: string }[] }>(
        token,
        url,
        { method: 'GET', signal, what: 'the recent posts lookup' },
        config.maxRateLimitWaitMs,
      );
      const wanted = comparable(text);
      return data?.data?.find((candidate) => comparable(candidate.text ?? '') === wanted)?.id;
    } catch {
      return undefined;
    }
  }

  function tokenFor(
    account: PlatformAccount,
    context: Partial<Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'logger'>> | undefined,
  ): XAccessToken {
    return xToken({
      account,
      credentials: credentialsOf(account),
      config,
      locks,
      signal: context?.signal,
      onRefreshed: context?.onCredentialsRefreshed,
      logger: context?.logger,
    });
  }

  async function mediaIds(
    files: readonly MediaFile[],
    token: XAccessToken,
    context: PublishContext,
  ): Promise<string[]> {
    const now = Date.now();
    for (const [key, entry] of uploaded) {
      if (entry.expires < now || uploaded.size > maxUploadedEntries) uploaded.delete(key);
    }
    const ids: string[] = [];
    // One at a time: X's upload rate limit is per user, and order is the post's image order.
    for (const file of files) {
      const key = `${context.idempotencyKey}\n${file.key}`;
      const known = uploaded.get(key);
      if (known) {
        ids.push(known.id);
        continue;
      }
      const id = await uploadXMedia(file, token, config, context.signal);
      // Before remembering the id: a retry after a failed alt text uploads again rather than posting without it.
      await setXAltText(id, file, token, config, context.signal);
      uploaded.set(key, { id, expires: Date.now() + uploadedTtlMs });
      ids.push(id);
    }
    return ids;
  }

  return {
    id: 'x',
    displayName: 'X',
    optionsSchema: xOptionsSchema,
    credentialsSchema: xCredentialsSchema,
    concurrency: 4,
    // X refuses a resent duplicate (403); the earlier tweet is then found among the latest ones.
    dedupe: 'lookup',
    credentialConcurrency: 1,
    concurrencyKey: (account) => `x:${account.platformAccountId}`,

    async validate(post, account, media, options) {
      const outcome = validateXPost(post, media, options);
      if (!xCredentialsSchema.safeParse(account.credentials).success) {
        outcome.errors.push({ code: 'credentials_invalid', message: 'X credentials need an accessToken' });
      }
      return outcome;
    },

    // Media upload v2 ids stay valid for 24 hours: stage uploads them (video processing included)
    // ahead of the due time, and publish then only creates the post.
    async stage(_post, account, media, _options, context): Promise<StagedMedia> {
      const token = tokenFor(account, context);
      const ids = await mediaIds(media, token, context);
      const handle: XStaged = { keys: media.map((f) => f.key), ids };
      return { handle: JSON.stringify(handle), expiresAt: new Date(Date.now() + stagedTtlMs) };
    },

    async publish(post, account, media, options, context): Promise<PublishResult> {
      const token = tokenFor(account, context);
      const ids = stagedIds(context.staged, media) ?? (await mediaIds(media, token, context));
      // A media-only post has no text at all: X refuses an empty `text`.
      const body: Record<string, unknown> = post.message === '' ? {} : { text: post.message };
      if (ids.length > 0) body.media = { media_ids: ids };
      // A thread part (or first comment) answers the part before it; otherwise the option's post, if any.
      const replyTo = context.replyTo?.parent.platformPostId ?? options.replyToPostId;
      if (replyTo) body.reply = { in_reply_to_tweet_id: replyTo };
      if (options.quotePostId) body.quote_tweet_id = options.quotePostId;
      if (options.replySettings && options.replySettings !== 'everyone')
        body.reply_settings = options.replySettings;
      let id: string | undefined;
      try {
        const { data } = await xFetch<{ data?: { id?: string } }>(
          token,
          `${config.apiUrl}/2/tweets`,
          { method: 'POST', json: body, signal: context.signal, what: 'the post' },
          config.maxRateLimitWaitMs,
        );
        id = data?.data?.id;
      } catch (error) {
        const classified = error instanceof PlatformError ? error : undefined;
        // After an answer we never got, X may hold the post: its duplicate refusal then means "already posted".
        if (
          classified?.code === 'duplicate_content' &&
          classified.status === 403 &&
          (unclear.has(context.idempotencyKey) || context.resumed !== undefined)
        ) {
          const found = await findRecentPost(account, token, post.message, context.signal);
          if (found) id = found;
        }
        if (!id) {
          if (classified && isUnclearOutcome(classified)) rememberUnclear(context.idempotencyKey);
          throw error;
        }
      }
      unclear.delete(context.idempotencyKey);
      if (!id) throw new PlatformError('platform_unavailable', 'X answered the post without an id');
      for (const file of media) uploaded.delete(`${context.idempotencyKey}\n${file.key}`);
      const handle = account.username?.replace(/^@/, '');
      return { platformPostId: id, url: `https://x.com/${handle || 'i/web'}/status/${id}` };
    },

    metricsBatchSize: xMetricsBatchSize,
    metrics(targets, account, context) {
      return xPostMetrics(config, tokenFor(account, context), targets, context.signal);
    },
    accountMetrics(account, context) {
      return xAccountMetrics(config, tokenFor(account, context), context.signal);
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const token = tokenFor(account, context);
      const url = `${config.apiUrl}/2/users/me?user.fields=profile_image_url`;
      const { data } = await xFetch<UserAnswer>(
        token,
        url,
        { method: 'GET', ...(context?.signal ? { signal: context.signal } : {}), what: 'the account lookup' },
        config.maxRateLimitWaitMs,
      );
      return profileOf(data);
    },
  };
}

interface XStaged {
  keys: string[];
  ids: string[];
}

/** The staged media ids, when the handle was made for exactly these files. */
function stagedIds(staged: string | undefined, media: readonly MediaFile[]): string[] | undefined {
  if (!staged) return undefined;
  try {
    const parsed = JSON.parse(staged) as Partial<XStaged>;
    const keys = media.map((f) => f.key);
    if (
      Array.isArray(parsed.ids) &&
      Array.isArray(parsed.keys) &&
      parsed.ids.length === keys.length &&
      parsed.keys.every((k, i) => k === keys[i]) &&
      parsed.ids.every((id) => typeof id === 'string')
    )
      return parsed.ids;
  } catch {
    // Not a handle of ours: publish as usual.
  }
  return undefined;
}

export function profileOf(answer: UserAnswer | undefined): AccountProfile {
  const user = answer?.data;
  if (!user?.id)
    throw new PlatformError('platform_unavailable', 'X answered the account lookup without a user');
  return {
    name: user.name || user.username || user.id,
    ...(user.username ? { username: user.username } : {}),
    ...(user.profile_image_url ? { avatarUrl: user.profile_image_url } : {}),
    platformAccountId: user.id,
  };
}

function credentialsOf(account: PlatformAccount): XCredentials {
  const parsed = xCredentialsSchema.safeParse(account.credentials);
  if (!parsed.success) throw new PlatformError('credentials_invalid', 'X credentials need an accessToken');
  return parsed.data;
}

/** X answers with links shortened to t.co and HTML entities escaped; compare without them. */
function comparable(text: string): string {
  return text
    .replace(/https?:\/\/\S+/g, 'URL')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
}
