import { createHash } from 'node:crypto';
import { z } from 'zod';
import { PlatformError } from '../../errors.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { appendBlock, imagesMarkdown } from '../../text/markdown.ts';
import { longFormParts } from '../long-form.ts';
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
import { devtoCall } from './api.ts';
import type { DevtoConfig } from './config.ts';
import { devtoManifest } from './manifest.ts';
import { type DevtoOptions, devtoCredentialsSchema, devtoOptionsSchema } from './options.ts';
import { validateDevtoPost } from './validate.ts';

/** An article as `GET /api/articles/me/all` lists it. */
interface MyArticle {
  id?: unknown;
  title?: unknown;
  url?: unknown;
  published_at?: unknown;
  page_views_count?: unknown;
  public_reactions_count?: unknown;
  comments_count?: unknown;
}

const userSchema = z.object({
  id: z.number().int(),
  username: z.string().regex(/^[\w.-]{1,100}$/),
  name: z.string().max(500).optional(),
  profile_image: z.string().optional(),
});

const pageSize = 1000;
/** At most this many pages of the user's articles are read to find metrics targets. */
const maxPages = 5;
const clockSlackMs = 10 * 60_000;

const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/**
 * Publishes articles to Dev.to (any Forem) with an API key: `POST /api/articles` with the
 * message's Markdown as the body, the first image as the cover by our public URL and the others
 * as Markdown images after the text. See docs/platforms/devto.md.
 */
export function createDevtoPublisher(config: DevtoConfig): Publisher<DevtoOptions> {
  const ledger = new SendLedger();
  const keyOf = (account: PlatformAccount) => {
    const parsed = devtoCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success) throw new PlatformError('credentials_invalid', 'Dev.to credentials need an apiKey');
    return parsed.data.apiKey;
  };

  async function myArticles(apiKey: string, page: number, perPage: number, signal?: AbortSignal) {
    const list = await devtoCall<MyArticle[]>(config.apiUrl, apiKey, {
      method: 'GET',
      path: '/articles/me/all',
      query: { page: String(page), per_page: String(perPage) },
      operation: 'read',
      signal,
    });
    return Array.isArray(list) ? list : [];
  }

  /** The user's article with this title from an earlier attempt, among the latest ones. */
  async function findRecent(apiKey: string, title: string, since: number, signal: AbortSignal) {
    try {
      const match = (await myArticles(apiKey, 1, 30, signal)).find(
        (article) =>
          typeof article.id === 'number' &&
          article.title === title &&
          (typeof article.published_at !== 'string' ||
            Date.parse(article.published_at) >= since - clockSlackMs),
      );
      return match ? result(match) : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    id: devtoManifest.id,
    displayName: devtoManifest.name,
    optionsSchema: devtoOptionsSchema,
    credentialsSchema: devtoCredentialsSchema,
    concurrency: 4,
    // Forem takes one write a second per API key.
    credentialConcurrency: 1,
    concurrencyKey(account) {
      const parsed = devtoCredentialsSchema.safeParse(account.credentials);
      return parsed.success
        ? `devto:${createHash('sha256').update(parsed.data.apiKey).digest('hex').slice(0, 16)}`
        : undefined;
    },
    // An article whose answer was lost is found among the user's latest articles by its title.
    dedupe: 'lookup',
    metricsBatchSize: 100,

    async validate(
      post: PostContent,
      account: PlatformAccount,
      media: MediaInfo[],
      options: DevtoOptions,
    ): Promise<ValidationOutcome> {
      return validateDevtoPost(post, account, media, options);
    },

    async publish(
      post,
      account,
      media: MediaFile[],
      options,
      context: PublishContext,
    ): Promise<PublishResult> {
      const apiKey = keyOf(account);
      const { title, body } = longFormParts(post.message, options.title);
      const earlier = ledger.earlierSend(context);
      if (earlier) {
        const found = await findRecent(apiKey, title, earlier.getTime(), context.signal);
        if (found) {
          ledger.done(context);
          return found;
        }
      }
      const [cover, ...inline] = media;
      const article = {
        title,
        body_markdown: appendBlock(
          body,
          imagesMarkdown(inline.map((file) => ({ url: file.url, alt: file.altText }))),
        ),
        published: options.published ?? true,
        ...(options.tags?.length ? { tags: options.tags } : {}),
        ...(options.canonicalUrl ? { canonical_url: options.canonicalUrl } : {}),
        ...(cover ? { main_image: cover.url } : {}),
      };
      ledger.sending(context);
      const created: MyArticle = await devtoCall<MyArticle>(config.apiUrl, apiKey, {
        method: 'POST',
        path: '/articles',
        json: { article },
        operation: 'article',
        signal: context.signal,
      });
      ledger.done(context);
      const answer = result(created);
      if (!answer)
        throw new PlatformError('platform_unavailable', 'Dev.to answered the article without an id');
      return answer;
    },

    /** Views, reactions and comments from the user's article list; an article no longer listed is gone. */
    async metrics(targets: readonly MetricsTarget[], account, context: PlatformCallContext) {
      const apiKey = keyOf(account);
      const wanted = new Set(targets.map((t) => t.platformPostId));
      const results = new Map<string, PostMetricsResult>();
      for (let page = 1; page <= maxPages && wanted.size > 0; page++) {
        const list = await myArticles(apiKey, page, pageSize, context.signal);
        for (const article of list) {
          const id = String(article.id);
          if (!wanted.delete(id)) continue;
          const views = count(article.page_views_count);
          const likes = count(article.public_reactions_count);
          const comments = count(article.comments_count);
          results.set(id, {
            state: 'ok',
            metrics: {
              ...(views !== undefined ? { views } : {}),
              ...(likes !== undefined ? { likes } : {}),
              ...(comments !== undefined ? { comments } : {}),
            },
          });
        }
        // The whole list was read: what it does not hold was deleted.
        if (list.length < pageSize) {
          for (const id of wanted) results.set(id, { state: 'gone' });
          break;
        }
      }
      return results;
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const body = await devtoCall<unknown>(config.apiUrl, keyOf(account), {
        method: 'GET',
        path: '/users/me',
        operation: 'account',
        signal: context?.signal,
      });
      const user = userSchema.safeParse(body);
      if (!user.success)
        throw new PlatformError('platform_unavailable', 'Dev.to answered /users/me without a user');
      const { username, name, profile_image: avatar } = user.data;
      return {
        name: name?.trim().slice(0, 100) || username,
        username,
        platformAccountId: username,
        ...(avatar && /^https?:\/\/\S{1,2000}$/.test(avatar) ? { avatarUrl: avatar } : {}),
      };
    },
  };
}

function result(article: MyArticle): PublishResult | undefined {
  if (typeof article.id !== 'number') return undefined;
  return {
    platformPostId: String(article.id),
    ...(typeof article.url === 'string' && /^https?:\/\//.test(article.url) ? { url: article.url } : {}),
  };
}
