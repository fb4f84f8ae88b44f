import { createHash } from 'node:crypto';
import { isPlatformError, PlatformError } from '../../errors.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { checkOptionChoices } from '../option-choices.ts';
import type { AccountProfile, PlatformAccount, PublishContext, Publisher, PublishResult } from '../types.ts';
import { RedditApi, RedditRateWindows } from './api.ts';
import type { RedditConfig } from './config.ts';
import { redditKind } from './kind.ts';
import { redditManifest } from './manifest.ts';
import {
  type RedditCredentials,
  type RedditOptions,
  redditCredentialsSchema,
  redditOptionsSchema,
} from './options.ts';
import { findOwnPost, submitPost } from './submit.ts';
import {
  flairChoices,
  kindRefusal,
  type RedditFlair,
  type SubredditRules,
  subredditFlairs,
  subredditRules,
} from './subreddit.ts';
import { RedditToken } from './token.ts';
import { checkSubredditRules, validateRedditPost } from './validate.ts';

interface Me {
  name?: string;
  icon_img?: string;
  subreddit?: { display_name?: string };
}

/** Subreddit rules and flairs change rarely: kept this long per subreddit and login. */
const lookupTtlMs = 60_000;
const validationTimeoutMs = 10_000;
const flairField = redditManifest.options.find((o) => o.name === 'flairId')!;

type CallContext = Pick<PublishContext, 'signal' | 'onCredentialsRefreshed'> & {
  logger?: PublishContext['logger'];
};

export function createRedditPublisher(config: RedditConfig): Publisher<RedditOptions> {
  const windows = new RedditRateWindows();
  const lookups = new Map<string, { at: number; value: Promise<unknown> }>();

  function credentialsOf(account: PlatformAccount): RedditCredentials {
    const parsed = redditCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success)
      throw new PlatformError('credentials_invalid', 'Reddit credentials need accessToken and refreshToken');
    return parsed.data;
  }

  function apiFor(account: PlatformAccount, context: CallContext | undefined): RedditApi {
    const token = new RedditToken({
      config,
      credentials: credentialsOf(account),
      signal: context?.signal,
      onRefreshed: context?.onCredentialsRefreshed,
      logger: context?.logger,
    });
    return new RedditApi(config, token, windows, context?.signal);
  }

  const loginKey = (account: PlatformAccount): string | undefined => {
    const { refreshToken } = account.credentials;
    return typeof refreshToken === 'string'
      ? createHash('sha256').update(refreshToken).digest('base64url')
      : undefined;
  };

  /** One answer per subreddit and login for `lookupTtlMs`; a failure is not kept. */
  function cached<T>(account: PlatformAccount, what: string, load: () => Promise<T>): Promise<T> {
    const key = `${loginKey(account)}:${account.platformAccountId.toLowerCase()}:${what}`;
    const now = Date.now();
    const hit = lookups.get(key);
    if (hit && now - hit.at < lookupTtlMs) return hit.value as Promise<T>;
    const value = load();
    lookups.set(key, { at: now, value });
    if (lookups.size > 5_000) lookups.delete(lookups.keys().next().value!);
    value.catch(() => {
      if (lookups.get(key)?.value === value) lookups.delete(key);
    });
    return value;
  }

  const rulesOf = (account: PlatformAccount, api: RedditApi) =>
    cached<SubredditRules>(account, 'rules', () => subredditRules(api, account.platformAccountId));
  const flairsOf = (account: PlatformAccount, api: RedditApi) =>
    cached<RedditFlair[]>(account, 'flairs', () => subredditFlairs(api, account.platformAccountId));

  async function usernameOf(api: RedditApi): Promise<string> {
    if (api.token.username) return api.token.username;
    const me = await api.call<Me>('/api/v1/me', {}, 'the account lookup');
    if (!me?.name) throw new PlatformError('internal', 'Reddit answered the account lookup without a name');
    return me.name;
  }

  const publisher: Publisher<RedditOptions> = {
    id: redditManifest.id,
    displayName: redditManifest.name,
    optionsSchema: redditOptionsSchema,
    credentialsSchema: redditCredentialsSchema,
    concurrency: 8,
    // Reddit's window (about 100 calls a minute) is per login; its headers pace the calls.
    credentialConcurrency: 2,
    concurrencyKey: loginKey,
    // No idempotency key at Reddit: a lost answer is completed by finding the post (same title,
    // by this user, since the earlier attempt) among the subreddit's newest.
    dedupe: 'lookup',

    async validate(post, account, media, options) {
      const outcome = validateRedditPost(post, account, media, options);
      // No subreddit to ask about: its rules and flairs would only add a misleading warning.
      if (outcome.errors.some((e) => e.code === 'account_invalid')) return outcome;
      let api: RedditApi;
      try {
        api = apiFor(account, { signal: AbortSignal.timeout(validationTimeoutMs) });
      } catch {
        return outcome;
      }
      const errors: ValidationIssue[] = [];
      try {
        const rules = await rulesOf(account, api);
        const flairs = options.flairId ? await flairsOf(account, api).catch(() => undefined) : undefined;
        errors.push(
          ...checkSubredditRules(post, account, media, options, rules, flairs, (kind) =>
            kindRefusal(rules, kind),
          ),
        );
      } catch (error) {
        outcome.warnings.push({
          code: 'subreddit_rules_unavailable',
          message: `The rules of r/${account.platformAccountId} could not be read${isPlatformError(error) ? ` (${error.code.replaceAll('_', ' ')})` : ''}; Reddit judges the post when it is sent`,
          path: `accountOptions.${account.id}`,
        });
      }
      const choices = await checkOptionChoices({
        publisher,
        account,
        fields: [flairField],
        options,
        load: async () => flairChoices(await flairsOf(account, api)),
      });
      return {
        errors: [...outcome.errors, ...errors, ...choices.errors],
        warnings: [...outcome.warnings, ...choices.warnings],
      };
    },

    async publish(post, account, media, options, context): Promise<PublishResult> {
      const api = apiFor(account, context);
      const subreddit = account.platformAccountId;
      const title = (options.title ?? '').trim();
      if (!title) throw new PlatformError('content_rejected', 'A Reddit post needs a title');
      if (context.resumed) {
        const found = await findOwnPost(
          api,
          subreddit,
          title,
          await usernameOf(api),
          context.resumed.since,
        ).catch((error: unknown) => {
          // No listing to search is no earlier post found; anything else may hide one.
          if (isPlatformError(error) && error.status === 404) return undefined;
          throw error;
        });
        if (found) return found;
      }
      return submitPost({
        api,
        subreddit,
        kind: redditKind(post.message, media),
        message: post.message,
        media: media[0],
        options,
        signal: context.signal,
        username: () => usernameOf(api),
      });
    },

    // The `flairId` field's choices: the subreddit's post flairs (contract section C).
    async optionChoices(account, field, _values, context) {
      if (field !== 'flairId') return [];
      return flairChoices(await subredditFlairs(apiFor(account, context), account.platformAccountId));
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const api = apiFor(account, context);
      const me = await api.call<Me>('/api/v1/me', {}, 'the account lookup');
      if (!me?.name) throw new PlatformError('credentials_invalid', 'Reddit answered no user for this token');
      const avatarUrl =
        typeof me.icon_img === 'string' && me.icon_img ? me.icon_img.split('?')[0] : undefined;
      return {
        name: profileName(account.platformAccountId, me.name),
        username: me.name,
        ...(avatarUrl ? { avatarUrl } : {}),
      };
    },
  };
  return publisher;
}

/** `r/<sub>`, or `u/<name>` for a user's profile subreddit (`u_<name>`) or no subreddit. */
function profileName(subreddit: string, username: string): string {
  if (!subreddit) return `u/${username}`;
  return subreddit.startsWith('u_') ? `u/${subreddit.slice(2)}` : `r/${subreddit}`;
}
