import { PlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { extensionFor } from '../../media/kinds.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { appendBlock, imagesMarkdown } from '../../text/markdown.ts';
import { AttemptMemory } from '../attempt-memory.ts';
import { longFormParts, siteRoot } from '../long-form.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PostContent,
  PublishContext,
  Publisher,
  PublishResult,
  ValidationOutcome,
} from '../types.ts';
import { ListmonkApi } from './api.ts';
import { listmonkManifest } from './manifest.ts';
import { type ListmonkOptions, listmonkCredentialsSchema, listmonkOptionsSchema } from './options.ts';
import { validateListmonkPost } from './validate.ts';

interface Campaign {
  id?: unknown;
  subject?: unknown;
  status?: unknown;
  created_at?: unknown;
  lists?: { id?: unknown }[];
}

interface List {
  id?: unknown;
  name?: unknown;
}

const uploadTimeoutMs = 5 * 60_000;
/** How far before an attempt a found campaign may be dated: clocks of the server and ours differ. */
const clockSlackMs = 10 * 60_000;

function unclearOutcome(error: unknown): boolean {
  if (!(error instanceof PlatformError)) return false;
  return error.code === 'timeout' || error.code === 'network_error' || error.code === 'platform_unavailable';
}

/**
 * Sends newsletters through a Listmonk server (v4+, an API user): images to the media library,
 * a campaign to the account's list with the Markdown body, then its status set to `running`
 * (sent) unless the post is a draft. See docs/platforms/listmonk.md.
 */
export class ListmonkPublisher implements Publisher<ListmonkOptions> {
  readonly id = listmonkManifest.id;
  readonly displayName = listmonkManifest.name;
  readonly optionsSchema = listmonkOptionsSchema;
  readonly credentialsSchema = listmonkCredentialsSchema;
  readonly concurrency = 4;
  readonly credentialConcurrency = 2;
  /** A campaign whose answer was lost is found among the server's latest ones by subject and list. */
  readonly dedupe = 'lookup' as const;
  readonly #uploads = new AttemptMemory<string>();
  /** Campaigns created by an attempt whose sending step failed: the retry only sends. */
  readonly #created = new AttemptMemory<string>();
  readonly #unclear = new AttemptMemory<number>();

  concurrencyKey(account: PlatformAccount): string | undefined {
    const parsed = listmonkCredentialsSchema.safeParse(account.credentials);
    return parsed.success ? `listmonk:${siteRoot(parsed.data.baseUrl)}` : undefined;
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
    options: ListmonkOptions,
  ): Promise<ValidationOutcome> {
    const outcome = validateListmonkPost(post, account, media, options);
    if (!/^[1-9]\d{0,17}$/.test(account.platformAccountId)) {
      outcome.errors.push({
        code: 'target_unreachable',
        message: 'The account names no Listmonk list id (a number)',
        path: 'platformAccountId',
      });
    }
    return outcome;
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: ListmonkOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const api = this.#api(account, context.signal, context.accountHostFetch);
    const listId = listIdOf(account);
    const { title: subject, body } = longFormParts(post.message, options.subject);
    const send = !(options.draft ?? false);
    const key = context.idempotencyKey;

    let campaignId = this.#created.get(key);
    if (campaignId !== undefined && send) {
      // An earlier attempt created the campaign; its start may have gone through unseen.
      const earlier = await api.request<Campaign>({
        method: 'GET',
        path: `/api/campaigns/${campaignId}`,
        operation: 'read',
      });
      if (earlier.status !== 'draft') {
        this.#created.delete(key);
        return this.#result(api, campaignId);
      }
    }
    const since = context.resumed?.since.getTime() ?? this.#unclear.get(key);
    if (campaignId === undefined && since !== undefined) {
      const found = await findRecentCampaign(api, subject, listId, since);
      if (found) {
        this.#unclear.delete(key);
        if (!send || found.status !== 'draft') return this.#result(api, found.id);
        campaignId = found.id;
      }
    }

    if (campaignId === undefined) {
      const urls: string[] = [];
      for (const file of media) {
        const uploadKey = `${key}\n${file.key}`;
        const url = this.#uploads.get(uploadKey) ?? (await uploadImage(api, file));
        this.#uploads.set(uploadKey, url);
        urls.push(url);
      }
      const images = urls.map((url, index) => ({ url, alt: media[index]?.altText }));
      const [top, ...rest] = images;
      const markdown = appendBlock(appendBlock(top ? imagesMarkdown([top]) : '', body), imagesMarkdown(rest));
      let created: Campaign;
      try {
        created = await api.request<Campaign>({
          method: 'POST',
          path: '/api/campaigns',
          json: {
            name: subject,
            subject,
            lists: [Number(listId)],
            content_type: 'markdown',
            body: markdown,
            type: 'regular',
          },
          operation: 'campaign',
        });
      } catch (error) {
        if (unclearOutcome(error)) this.#unclear.set(key, since ?? Date.now() - 1000);
        throw error;
      }
      this.#unclear.delete(key);
      for (const file of media) this.#uploads.delete(`${key}\n${file.key}`);
      if (typeof created.id !== 'number')
        throw new PlatformError('platform_unavailable', `${api.host} answered the campaign without an id`);
      campaignId = String(created.id);
    }

    if (send) {
      this.#created.set(key, campaignId);
      await api.request<Campaign>({
        method: 'PUT',
        path: `/api/campaigns/${campaignId}/status`,
        json: { status: 'running' },
        operation: 'send',
      });
    }
    this.#created.delete(key);
    return this.#result(api, campaignId);
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'accountHostFetch'>,
  ): Promise<AccountProfile> {
    const api = this.#api(account, context?.signal, context?.accountHostFetch);
    const parsed = listmonkCredentialsSchema.parse(account.credentials);
    const wanted = account.platformAccountId.trim();
    if (!wanted) throw new PlatformError('target_unreachable', 'Name the Listmonk list: its id or its name');
    let list: List | undefined;
    if (/^\d+$/.test(wanted)) {
      list = await api.request<List>({ method: 'GET', path: `/api/lists/${wanted}`, operation: 'account' });
    } else {
      const page = await api.request<{ results?: List[] }>({
        method: 'GET',
        path: '/api/lists',
        query: { per_page: 'all' },
        operation: 'account',
      });
      if (!Array.isArray(page.results))
        throw new PlatformError('platform_unavailable', `${api.host} did not answer like Listmonk`);
      list = page.results.find(
        (l) => typeof l.name === 'string' && l.name.toLowerCase() === wanted.toLowerCase(),
      );
      if (!list)
        throw new PlatformError(
          'target_unreachable',
          `Listmonk at ${api.host} has no list named ${wanted.slice(0, 100)}`,
        );
    }
    if (typeof list.id !== 'number')
      throw new PlatformError('platform_unavailable', `${api.host} did not answer like Listmonk`);
    const name = typeof list.name === 'string' ? list.name.trim().slice(0, 100) : '';
    return {
      name: name || `List ${list.id}`,
      username: `${parsed.username}@${api.host}`,
      platformAccountId: String(list.id),
    };
  }

  #result(api: ListmonkApi, id: string): PublishResult {
    return { platformPostId: id, url: `${api.root}/admin/campaigns/${id}` };
  }

  #api(account: PlatformAccount, signal: AbortSignal | undefined, fetch?: FetchLike): ListmonkApi {
    const parsed = listmonkCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success) {
      throw new PlatformError(
        'credentials_invalid',
        `Listmonk credentials need a valid ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      );
    }
    return new ListmonkApi(siteRoot(parsed.data.baseUrl), parsed.data, signal, fetch);
  }
}

function listIdOf(account: PlatformAccount): string {
  const id = account.platformAccountId.trim();
  if (!/^[1-9]\d{0,17}$/.test(id))
    throw new PlatformError('target_unreachable', 'The account names no Listmonk list id (a number)', {
      retryable: false,
    });
  return id;
}

/** Uploads one image to the media library (`POST /api/media`, multipart `file`); answers its URL. */
async function uploadImage(api: ListmonkApi, file: MediaFile): Promise<string> {
  const form = new FormData();
  const base = file.filename.replace(/[^\w.-]+/g, '_').replace(/\.[^.]*$/, '') || 'image';
  form.append('file', await file.blob(), `${base}.${extensionFor(file.contentType)}`);
  const answer = await api.request<{ url?: unknown }>({
    method: 'POST',
    path: '/api/media',
    form,
    operation: 'image',
    timeoutMs: uploadTimeoutMs,
  });
  if (typeof answer.url !== 'string' || !/^https?:\/\//.test(answer.url))
    throw new PlatformError('platform_unavailable', `${api.host} answered the upload without a URL`);
  return answer.url;
}

/** The server's campaign with this subject to this list created since `since`, among its latest 20. */
async function findRecentCampaign(
  api: ListmonkApi,
  subject: string,
  listId: string,
  since: number,
): Promise<{ id: string; status: unknown } | undefined> {
  try {
    const page = await api.request<{ results?: Campaign[] }>({
      method: 'GET',
      path: '/api/campaigns',
      query: { order_by: 'created_at', order: 'DESC', per_page: '20', page: '1' },
      operation: 'read',
    });
    const match = (page.results ?? []).find(
      (c) =>
        typeof c.id === 'number' &&
        c.subject === subject &&
        (c.lists ?? []).some((l) => String(l.id) === listId) &&
        (typeof c.created_at !== 'string' || Date.parse(c.created_at) >= since - clockSlackMs),
    );
    return match ? { id: String(match.id), status: match.status } : undefined;
  } catch {
    return undefined;
  }
}
