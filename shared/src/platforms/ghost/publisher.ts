import { PlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { extensionFor } from '../../media/kinds.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { appendBlock, imagesHtml, markdownToHtml } from '../../text/markdown.ts';
import { AttemptMemory } from '../attempt-memory.ts';
import { longFormParts, siteRoot } from '../long-form.ts';
import { SendLedger } from '../send-ledger.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PostContent,
  PublishContext,
  Publisher,
  PublishResult,
  ValidationOutcome,
} from '../types.ts';
import { GhostApi } from './api.ts';
import { ghostManifest } from './manifest.ts';
import { type GhostOptions, ghostCredentialsSchema, ghostOptionsSchema } from './options.ts';
import { validateGhostPost } from './validate.ts';

interface GhostPost {
  id?: unknown;
  title?: unknown;
  url?: unknown;
  created_at?: unknown;
}

/** How far before an attempt a found post may be dated: clocks of the site and ours differ. */
const clockSlackMs = 10 * 60_000;
const uploadTimeoutMs = 5 * 60_000;

/**
 * Publishes to a Ghost site through its Admin API with a custom integration's key: images to
 * `images/upload/`, then one post from HTML (`posts/?source=html`). See docs/platforms/ghost.md.
 */
export class GhostPublisher implements Publisher<GhostOptions> {
  readonly id = ghostManifest.id;
  readonly displayName = ghostManifest.name;
  readonly optionsSchema = ghostOptionsSchema;
  readonly credentialsSchema = ghostCredentialsSchema;
  readonly concurrency = 4;
  readonly credentialConcurrency = 2;
  /** A post whose answer was lost is found among the site's latest posts by its title. */
  readonly dedupe = 'lookup' as const;
  /** Image URLs an earlier attempt of the same publish uploaded, reused instead of uploaded again. */
  readonly #uploads = new AttemptMemory<string>();
  /** Which sends may have reached the site, so a retry looks for the post first. */
  readonly #ledger = new SendLedger();

  concurrencyKey(account: PlatformAccount): string | undefined {
    const parsed = ghostCredentialsSchema.safeParse(account.credentials);
    return parsed.success ? `ghost:${siteRoot(parsed.data.siteUrl)}` : undefined;
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
    options: GhostOptions,
  ): Promise<ValidationOutcome> {
    return validateGhostPost(post, account, media, options);
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: GhostOptions,
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
    const urls: string[] = [];
    for (const file of media) {
      const uploadKey = `${key}\n${file.key}`;
      const url = this.#uploads.get(uploadKey) ?? (await uploadImage(api, file));
      this.#uploads.set(uploadKey, url);
      urls.push(url);
    }
    const [feature, ...inline] = urls;
    const figures = imagesHtml(
      inline.map((url, index) => ({ url, alt: media[index + 1]?.altText })),
      'kg-card kg-image-card',
    );
    const draft = {
      title,
      html: appendBlock(markdownToHtml(body), figures),
      // Always sent: Ghost's own default is a draft.
      status: options.status ?? 'published',
      // Ghost's short form: a tag by its name; one the site does not have is created.
      ...(options.tags?.length ? { tags: options.tags } : {}),
      ...(feature ? { feature_image: feature } : {}),
      ...(feature && media[0]?.altText ? { feature_image_alt: media[0].altText } : {}),
    };
    this.#ledger.sending(context);
    const created: { posts?: GhostPost[] } = await api.request<{ posts?: GhostPost[] }>({
      method: 'POST',
      path: '/posts/',
      query: { source: 'html' },
      json: { posts: [draft] },
      operation: 'post',
    });
    this.#ledger.done(context);
    for (const file of media) this.#uploads.delete(`${key}\n${file.key}`);
    const saved = created.posts?.[0];
    if (typeof saved?.id !== 'string') {
      throw new PlatformError('platform_unavailable', `${api.host} answered the post without an id`);
    }
    return { platformPostId: saved.id, ...httpUrl(saved.url) };
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'accountHostFetch'>,
  ): Promise<AccountProfile> {
    const api = this.#api(account, context?.signal, context?.accountHostFetch);
    const posts = await api.request<{ posts?: unknown }>({
      method: 'GET',
      path: '/posts/',
      query: { limit: '1', fields: 'id' },
      operation: 'account',
    });
    // The site is whatever address the user typed: it must answer like Ghost, and nothing else of
    // the reply is kept.
    if (!Array.isArray(posts.posts))
      throw new PlatformError('platform_unavailable', `${api.host} did not answer like Ghost`);
    const site = await api
      .request<{ site?: { title?: unknown; icon?: unknown; logo?: unknown } }>({
        method: 'GET',
        path: '/site/',
        operation: 'read',
        authenticated: false,
      })
      .then((answer) => answer.site)
      .catch(() => undefined);
    const title = typeof site?.title === 'string' ? site.title.trim().slice(0, 100) : '';
    const icon = [site?.icon, site?.logo].find(
      (u): u is string => typeof u === 'string' && /^https?:\/\/\S{1,2000}$/.test(u),
    );
    const address = new URL(api.site);
    return {
      name: title || address.host,
      username: `${address.host}${address.pathname === '/' ? '' : address.pathname}`,
      platformAccountId: api.site,
      ...(icon ? { avatarUrl: icon } : {}),
    };
  }

  #api(account: PlatformAccount, signal: AbortSignal | undefined, fetch?: FetchLike): GhostApi {
    const parsed = ghostCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success) {
      throw new PlatformError(
        'credentials_invalid',
        `Ghost credentials need a valid ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      );
    }
    return new GhostApi(siteRoot(parsed.data.siteUrl), parsed.data.adminApiKey, signal, fetch);
  }
}

/** Uploads one image (`images/upload/`, multipart `file`, `purpose`, `ref`); answers its URL. */
async function uploadImage(api: GhostApi, file: MediaFile): Promise<string> {
  const form = new FormData();
  const name = `${file.filename.replace(/[^\w.-]+/g, '_').replace(/\.[^.]*$/, '') || 'image'}.${extensionFor(file.contentType)}`;
  form.append('file', await file.blob(), name);
  form.append('purpose', 'image');
  form.append('ref', name);
  const answer = await api.request<{ images?: { url?: unknown }[] }>({
    method: 'POST',
    path: '/images/upload/',
    form,
    operation: 'image',
    timeoutMs: uploadTimeoutMs,
  });
  const url = answer.images?.[0]?.url;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
    throw new PlatformError('platform_unavailable', `${api.host} answered the upload without an image URL`);
  }
  return url;
}

/**
 * The site's post with exactly this title created since `since` (an attempt whose answer was
 * lost), among its latest ones; undefined when there is none or the site cannot be asked.
 */
async function findRecentPost(
  api: GhostApi,
  title: string,
  since: number,
): Promise<PublishResult | undefined> {
  try {
    const answer = await api.request<{ posts?: GhostPost[] }>({
      method: 'GET',
      path: '/posts/',
      query: {
        filter: 'status:[draft,published,scheduled]',
        order: 'created_at desc',
        limit: '15',
        fields: 'id,title,url,created_at',
      },
      operation: 'read',
    });
    const match = answer.posts?.find(
      (candidate) =>
        typeof candidate.id === 'string' &&
        candidate.title === title &&
        (typeof candidate.created_at !== 'string' ||
          Date.parse(candidate.created_at) >= since - clockSlackMs),
    );
    return match ? { platformPostId: match.id as string, ...httpUrl(match.url) } : undefined;
  } catch {
    return undefined;
  }
}

const httpUrl = (url: unknown): { url?: string } =>
  typeof url === 'string' && /^https?:\/\//.test(url) ? { url } : {};
