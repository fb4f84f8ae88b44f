import { z } from 'zod';
import { PlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { appendBlock, imagesHtml, markdownToHtml } from '../../text/markdown.ts';
import { AttemptMemory } from '../attempt-memory.ts';
import { longFormParts, siteRoot } from '../long-form.ts';
import type { OptionChoice } from '../manifest.ts';
import { SendLedger } from '../send-ledger.ts';
import type {
  AccountProfile,
  MetricsTarget,
  PlatformAccount,
  PlatformCallContext,
  PostContent,
  PostMetricsResult,
  PublishContext,
  Publisher,
  PublishResult,
  ValidationOutcome,
} from '../types.ts';
import { decodeEntities, WordPressApi } from './api.ts';
import { wordpressManifest } from './manifest.ts';
import { type UploadedImage, uploadImage } from './media.ts';
import { type WordPressOptions, wordpressCredentialsSchema, wordpressOptionsSchema } from './options.ts';
import { findRecentPost } from './recent.ts';
import { termChoices, termIds } from './terms.ts';
import { validateWordPressPost } from './validate.ts';

const userSchema = z.object({
  id: z.number().int(),
  name: z.string().max(500).optional(),
  slug: z
    .string()
    .regex(/^[\w.@%+-]{1,100}$/)
    .optional()
    .catch(undefined),
  avatar_urls: z.record(z.string(), z.string()).optional(),
  capabilities: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Publishes to a self-hosted or hosted WordPress site through its REST API (`/wp-json/wp/v2`)
 * with an application password: images to the media library, categories and tags by name, then
 * one post with the Markdown rendered to HTML. See docs/platforms/wordpress.md.
 */
export class WordPressPublisher implements Publisher<WordPressOptions> {
  readonly id = wordpressManifest.id;
  readonly displayName = wordpressManifest.name;
  readonly optionsSchema = wordpressOptionsSchema;
  readonly credentialsSchema = wordpressCredentialsSchema;
  readonly concurrency = 4;
  /** Small sites on shared hosting: two publishes at once per site. */
  readonly credentialConcurrency = 2;
  /** A post whose answer was lost is found among the site's latest posts by its title. */
  readonly dedupe = 'lookup' as const;
  /** Images an earlier attempt of the same publish uploaded, reused instead of uploaded again. */
  readonly #uploads = new AttemptMemory<UploadedImage>();
  /** Which sends may have reached the site, so a retry looks for the post first. */
  readonly #ledger = new SendLedger();

  concurrencyKey(account: PlatformAccount): string | undefined {
    const parsed = wordpressCredentialsSchema.safeParse(account.credentials);
    return parsed.success ? `wordpress:${siteRoot(parsed.data.siteUrl)}` : undefined;
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
    options: WordPressOptions,
  ): Promise<ValidationOutcome> {
    return validateWordPressPost(post, account, media, options);
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: WordPressOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const api = this.#api(account, context.signal, context.accountHostFetch);
    const { title, body } = longFormParts(post.message, options.title);
    const key = context.idempotencyKey;
    const earlier = this.#ledger.earlierSend(context);
    if (earlier) {
      const found = await findRecentPost(api, title, earlier.getTime());
      if (found) {
        this.#ledger.done(context);
        return found;
      }
    }
    const images: UploadedImage[] = [];
    // One at a time, in order: the first is the featured image, the others follow the text.
    for (const file of media) {
      const uploadKey = `${key}\n${file.key}`;
      const uploaded = this.#uploads.get(uploadKey) ?? (await uploadImage(api, file));
      this.#uploads.set(uploadKey, uploaded);
      images.push(uploaded);
    }
    const categories = options.categories?.length ? await termIds(api, 'categories', options.categories) : [];
    const tags = options.tags?.length ? await termIds(api, 'tags', options.tags) : [];
    const [featured, ...inline] = images;
    const inlineHtml = imagesHtml(
      inline.map((image, index) => ({ url: image.url, alt: media[index + 1]?.altText })),
      'wp-block-image',
    );
    const json = {
      title,
      content: appendBlock(markdownToHtml(body), inlineHtml),
      status: options.status ?? 'publish',
      ...(options.excerpt ? { excerpt: options.excerpt } : {}),
      ...(categories.length ? { categories } : {}),
      ...(tags.length ? { tags } : {}),
      ...(featured ? { featured_media: featured.id } : {}),
    };
    this.#ledger.sending(context);
    const { body: created } = await api.request<{ id?: unknown; link?: unknown }>({
      method: 'POST',
      route: '/wp/v2/posts',
      json,
      operation: 'post',
    });
    this.#ledger.done(context);
    for (const file of media) this.#uploads.delete(`${key}\n${file.key}`);
    if (typeof created.id !== 'number') {
      throw new PlatformError('platform_unavailable', `${api.host} answered the post without an id`);
    }
    return {
      platformPostId: String(created.id),
      ...(typeof created.link === 'string' && /^https?:\/\//.test(created.link) ? { url: created.link } : {}),
    };
  }

  async optionChoices(
    account: PlatformAccount,
    field: string,
    _values: Readonly<Record<string, string>>,
    context: PlatformCallContext,
  ): Promise<OptionChoice[]> {
    if (field !== 'categories' && field !== 'tags') return [];
    return termChoices(this.#api(account, context.signal, context.accountHostFetch), field);
  }

  /** Approved comments per post (`X-WP-Total` of its comments); a deleted or trashed post is gone. */
  async metrics(
    targets: readonly MetricsTarget[],
    account: PlatformAccount,
    context: PlatformCallContext,
  ): Promise<Map<string, PostMetricsResult>> {
    const api = this.#api(account, context.signal, context.accountHostFetch);
    const results = new Map<string, PostMetricsResult>();
    for (const { platformPostId: id } of targets) {
      if (!/^\d+$/.test(id)) continue;
      const post = await api.answer({
        method: 'GET',
        route: `/wp/v2/posts/${id}`,
        query: { context: 'edit', _fields: 'id,status' },
        operation: 'read',
      });
      if (post.status === 404 || post.status === 410) {
        results.set(id, { state: 'gone' });
        continue;
      }
      if (post.status !== 200) throw api.error(post, 'read');
      if ((post.body as { status?: unknown } | undefined)?.status === 'trash') {
        results.set(id, { state: 'gone' });
        continue;
      }
      const comments = await api.request<unknown>({
        method: 'GET',
        route: '/wp/v2/comments',
        query: { post: id, per_page: '1', _fields: 'id' },
        operation: 'read',
      });
      const total = Number(comments.headers.get('x-wp-total'));
      results.set(id, {
        state: 'ok',
        metrics: Number.isSafeInteger(total) && total >= 0 ? { comments: total } : {},
      });
    }
    return results;
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'accountHostFetch'>,
  ): Promise<AccountProfile> {
    const api = this.#api(account, context?.signal, context?.accountHostFetch);
    const { body } = await api.request<unknown>({
      method: 'GET',
      route: '/wp/v2/users/me',
      query: { context: 'edit' },
      operation: 'account',
    });
    // The site is whatever address the user typed: keep only fields shaped like WordPress's.
    const user = userSchema.safeParse(body);
    if (!user.success)
      throw new PlatformError('platform_unavailable', `${api.host} did not answer like WordPress`);
    const { capabilities, avatar_urls: avatars } = user.data;
    if (capabilities && capabilities.edit_posts !== true) {
      throw new PlatformError(
        'credentials_invalid',
        'This WordPress user cannot write posts; connect a user with the Author role or above',
      );
    }
    const siteName = await this.#siteName(api);
    const avatar = avatars?.['96'] ?? Object.values(avatars ?? {}).at(-1);
    const username = user.data.slug ?? wordpressCredentialsSchema.parse(account.credentials).username;
    return {
      name: siteName || user.data.name?.trim().slice(0, 100) || username,
      username,
      platformAccountId: api.site,
      ...(avatar && /^https?:\/\/\S{1,2000}$/.test(avatar) ? { avatarUrl: avatar } : {}),
    };
  }

  /** The site's title from the REST index, or nothing when it cannot be read. */
  async #siteName(api: WordPressApi): Promise<string | undefined> {
    try {
      const { body } = await api.request<{ name?: unknown }>({
        method: 'GET',
        route: '/',
        query: { _fields: 'name' },
        operation: 'read',
      });
      return typeof body.name === 'string'
        ? decodeEntities(body.name).trim().slice(0, 100) || undefined
        : undefined;
    } catch {
      return undefined;
    }
  }

  #api(account: PlatformAccount, signal: AbortSignal | undefined, fetch?: FetchLike): WordPressApi {
    const parsed = wordpressCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success) {
      throw new PlatformError(
        'credentials_invalid',
        `WordPress credentials need a valid ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      );
    }
    const { siteUrl, username, applicationPassword } = parsed.data;
    return new WordPressApi(siteRoot(siteUrl), { username, applicationPassword }, signal, fetch);
  }
}
