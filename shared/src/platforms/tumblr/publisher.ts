import { PlatformError } from '../../errors.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { accountIdIssue, tumblrBlog } from '../account-id.ts';
import { type RefreshingToken, RefreshLocks } from '../refreshing-token.ts';
import { lookupSlackMs, SendLedger, sameText } from '../send-ledger.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PostContent,
  PublishContext,
  Publisher,
  PublishResult,
  ValidationOutcome,
} from '../types.ts';
import { tumblrFetch } from './api.ts';
import type { TumblrConfig } from './config.ts';
import { tumblrManifest } from './manifest.ts';
import { type NpfPost, npfMultipart, npfPost } from './npf.ts';
import {
  type TumblrCredentials,
  type TumblrOptions,
  tumblrCredentialsSchema,
  tumblrOptionsSchema,
} from './options.ts';
import { tumblrCredentials, tumblrToken } from './token.ts';
import { blogProfile, readTumblrUser } from './user.ts';
import { validateTumblrPost } from './validate.ts';

/** Uploads travel in the post request itself: give it the time a large video needs. */
const uploadTimeoutMs = 10 * 60_000;

interface TumblrPostAnswer {
  id?: string | number;
  id_string?: string;
  state?: string;
}

interface ListedPost {
  id_string?: string;
  id?: string | number;
  timestamp?: number;
  content?: { type?: string; text?: string }[];
}

/**
 * Posts to Tumblr blogs in the Neue Post Format with OAuth 2 tokens (refreshed, rotated refresh
 * tokens handed back). Media go up as parts of the post request itself.
 */
export class TumblrPublisher implements Publisher<TumblrOptions> {
  readonly id = tumblrManifest.id;
  readonly displayName = tumblrManifest.name;
  readonly optionsSchema = tumblrOptionsSchema;
  readonly credentialsSchema = tumblrCredentialsSchema;
  readonly concurrency: number;
  /** Tumblr takes no idempotency key: a resend first looks for the earlier post on the blog. */
  readonly dedupe = 'lookup' as const;
  readonly #config: TumblrConfig;
  readonly #locks = new RefreshLocks();
  readonly #ledger = new SendLedger();

  constructor(config: TumblrConfig) {
    this.#config = config;
    this.concurrency = config.concurrency;
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
  ): Promise<ValidationOutcome> {
    const outcome = validateTumblrPost(post, media);
    const id = accountIdIssue(
      account,
      tumblrBlog,
      'Tumblr',
      'the blog\'s name (e.g. "alice-art") or hostname',
    );
    if (id) outcome.errors.push(id);
    if (!tumblrCredentialsSchema.safeParse(account.credentials).success)
      outcome.errors.push({
        code: 'credentials_invalid',
        message: 'Tumblr credentials need an accessToken',
        path: 'credentials',
      });
    return outcome;
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: TumblrOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const token = tumblrToken(
      tumblrCredentials(account),
      this.#config,
      this.#locks,
      context,
      account.currentCredentials,
    );
    const blog = account.platformAccountId;
    const body = npfPost(post.message, media, options);
    const earlier = this.#ledger.earlierSend(context);
    if (earlier) {
      const found = await this.#find(token, blog, body, earlier, context.signal).catch(() => undefined);
      if (found) return this.#result(blog, found, body.state);
    }
    this.#ledger.sending(context);
    const answer = await tumblrFetch<TumblrPostAnswer>(
      token,
      `${this.#config.apiUrl}/v2/blog/${encodeURIComponent(blog)}/posts`,
      media.length > 0
        ? {
            method: 'POST',
            what: 'the post',
            multipart: () => npfMultipart(body, media),
            signal: context.signal,
            timeoutMs: uploadTimeoutMs,
          }
        : { method: 'POST', what: 'the post', json: body, signal: context.signal },
    );
    const id = answer?.id_string ?? (answer?.id === undefined ? undefined : String(answer.id));
    if (!id || !/^\d{1,30}$/.test(id))
      throw new PlatformError('platform_unavailable', 'Tumblr answered the post without an id');
    this.#ledger.done(context);
    return this.#result(blog, id, answer.state ?? body.state);
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal' | 'onCredentialsRefreshed'>,
  ): Promise<AccountProfile> {
    const token = tumblrToken(
      tumblrCredentials(account),
      this.#config,
      this.#locks,
      context,
      account.currentCredentials,
    );
    const user = await readTumblrUser(token, this.#config, context?.signal);
    const wanted = account.platformAccountId;
    const blog = wanted
      ? user.blogs.find((b) => b.name.toLowerCase() === wanted.toLowerCase())
      : (user.blogs.find((b) => b.primary) ?? user.blogs[0]);
    if (!blog)
      throw new PlatformError(
        'target_unreachable',
        wanted ? `This Tumblr login cannot post to the blog "${wanted}"` : 'This Tumblr login has no blog',
      );
    return blogProfile(blog);
  }

  #result(blog: string, id: string, state: string): PublishResult {
    // Drafts and queued posts have no public page yet.
    return state === 'published'
      ? { platformPostId: id, url: `https://www.tumblr.com/${encodeURIComponent(blog)}/${id}` }
      : { platformPostId: id };
  }

  /** The blog's post an earlier send created: same text blocks and media blocks, made since then. */
  async #find(
    token: RefreshingToken<TumblrCredentials>,
    blog: string,
    body: NpfPost,
    since: Date,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const list = body.state === 'published' ? 'posts' : `posts/${body.state}`;
    const answer = await tumblrFetch<{ posts?: ListedPost[] }>(
      token,
      `${this.#config.apiUrl}/v2/blog/${encodeURIComponent(blog)}/${list}?npf=true&limit=20`,
      { method: 'GET', what: 'the recent posts lookup', signal },
    );
    const text = (blocks: readonly { type?: string; text?: string }[]) =>
      blocks
        .filter((b) => b.type === 'text')
        .map((b) => b.text ?? '')
        .join('\n\n');
    const media = (blocks: readonly { type?: string }[]) => blocks.filter((b) => b.type !== 'text').length;
    const found = (answer?.posts ?? []).find(
      (p) =>
        (p.timestamp === undefined || p.timestamp * 1000 >= since.getTime() - lookupSlackMs) &&
        sameText(text(p.content ?? []), text(body.content)) &&
        media(p.content ?? []) === media(body.content),
    );
    return found?.id_string ?? (found?.id === undefined ? undefined : String(found.id));
  }
}
