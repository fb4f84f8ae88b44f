import { PlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { extensionFor } from '../../media/kinds.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import type { AccountMetricName, OptionChoice } from '../manifest.ts';
import { lookupSlackMs, SendLedger, sameText } from '../send-ledger.ts';
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
import { LemmyApi, LemmySessions } from './api.ts';
import { type Community, resolveCommunity, subscribedCommunities } from './community.ts';
import type { LemmyConfig } from './config.ts';
import { splitPost } from './content.ts';
import { lemmyManifest } from './manifest.ts';
import { type LemmyOptions, lemmyCredentialsSchema, lemmyOptionsSchema } from './options.ts';
import { validateLemmyPost } from './validate.ts';

interface PostView {
  post?: {
    id?: number;
    name?: string;
    body?: string | null;
    ap_id?: string;
    published?: string;
    deleted?: boolean;
    removed?: boolean;
  };
  creator?: { name?: string };
  counts?: { score?: number; upvotes?: number; comments?: number };
}

type CallContext = Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'accountHostFetch'>;
const uploadTimeoutMs = 5 * 60_000;

/**
 * Publishes link or text posts to a Lemmy community (the account's, or the `community` option's)
 * with the account's login: images to the instance's pict-rs (the first becomes the post's link
 * unless the `url` option is set), then `POST /api/v3/post`; the first comment is a real comment
 * (`POST /api/v3/comment`).
 */
export class LemmyPublisher implements Publisher<LemmyOptions> {
  readonly id = lemmyManifest.id;
  readonly displayName = lemmyManifest.name;
  readonly optionsSchema = lemmyOptionsSchema;
  readonly credentialsSchema = lemmyCredentialsSchema;
  readonly concurrency: number;
  /** Lemmy has no idempotency key: a resend looks for the account's post among the community's newest. */
  readonly dedupe = 'lookup' as const;
  readonly #sessions = new LemmySessions();
  readonly #communities = new Map<string, Community>();
  readonly #ledger = new SendLedger();

  constructor(config: LemmyConfig) {
    this.concurrency = config.concurrency;
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
    options: LemmyOptions,
  ): Promise<ValidationOutcome> {
    const outcome = validateLemmyPost(post, account.id, media, options);
    if (!lemmyCredentialsSchema.safeParse(account.credentials).success)
      outcome.errors.push({
        code: 'credentials_invalid',
        message: 'Lemmy credentials need instanceUrl, username and a password or jwt',
        path: 'credentials',
      });
    return outcome;
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: LemmyOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const api = this.#api(account, context);
    // The `community` option posts elsewhere than the account's community, resolved alike.
    const community = await this.#community(api, options.community ?? account.platformAccountId);
    const { title, body } = splitPost(post.message, options);
    const username = lemmyCredentialsSchema.parse(account.credentials).username;
    const earlier = this.#ledger.earlierSend(context);
    if (earlier) {
      const found = await findPost(api, community, earlier, { title, username });
      if (found) return resultOf(api, found);
    }
    const images: { url: string; alt?: string }[] = [];
    for (const file of media)
      images.push({ url: await uploadImage(api, file), ...(file.altText ? { alt: file.altText } : {}) });
    // The first image is the post's link unless the `url` option names one; the others go in the body.
    const link = options.url ?? images.shift()?.url;
    const markdown = [body, ...images.map((i) => `![${(i.alt ?? '').replace(/[[\]]/g, '')}](${i.url})`)]
      .filter(Boolean)
      .join('\n\n');
    this.#ledger.sending(context);
    const answer = await api.call<{ post_view?: PostView }>({
      method: 'POST',
      path: '/api/v3/post',
      operation: 'post',
      json: {
        name: title,
        community_id: community.id,
        ...(markdown ? { body: markdown } : {}),
        ...(link ? { url: link } : {}),
        ...(options.nsfw !== undefined ? { nsfw: options.nsfw } : {}),
      },
    });
    const id = answer.post_view?.post?.id;
    if (typeof id !== 'number')
      throw new PlatformError('platform_unavailable', 'Lemmy answered without the created post');
    this.#ledger.done(context);
    return resultOf(api, answer.post_view!);
  }

  /** The first comment: `POST /api/v3/comment` under the post. */
  async comment(
    parent: PublishResult,
    text: string,
    account: PlatformAccount,
    _options: LemmyOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const api = this.#api(account, context);
    const answer = await api.call<{ comment_view?: { comment?: { id?: number; ap_id?: string } } }>({
      method: 'POST',
      path: '/api/v3/comment',
      operation: 'comment',
      json: { content: text, post_id: Number(parent.platformPostId) },
    });
    const id = answer.comment_view?.comment?.id;
    if (typeof id !== 'number')
      throw new PlatformError('platform_unavailable', 'Lemmy answered without the created comment');
    return { platformPostId: String(id), url: `${api.origin}/comment/${id}` };
  }

  async verifyCredentials(account: PlatformAccount, context?: CallContext): Promise<AccountProfile> {
    const api = this.#api(account, context);
    if (!account.platformAccountId.trim())
      throw new PlatformError('target_unreachable', 'Name the Lemmy community to post to, as name@instance', {
        retryable: false,
      });
    // Resolving the community needs a session: the login is checked on the way.
    const community = await this.#community(api, account.platformAccountId, true);
    return {
      name: community.title,
      username: `!${community.handle}`,
      platformAccountId: community.handle,
      ...(community.icon ? { avatarUrl: community.icon } : {}),
    };
  }

  async metrics(
    targets: readonly MetricsTarget[],
    account: PlatformAccount,
    context: PlatformCallContext,
  ): Promise<Map<string, PostMetricsResult>> {
    const api = this.#api(account, context);
    const results = new Map<string, PostMetricsResult>();
    for (const { platformPostId } of targets) {
      try {
        const { post_view: view } = await api.call<{ post_view?: PostView }>({
          method: 'GET',
          path: '/api/v3/post',
          operation: 'read',
          query: { id: platformPostId },
        });
        if (!view?.post || view.post.deleted || view.post.removed) {
          results.set(platformPostId, { state: 'gone' });
          continue;
        }
        const { upvotes, comments } = view.counts ?? {};
        results.set(platformPostId, {
          state: 'ok',
          metrics: {
            ...(typeof upvotes === 'number' ? { likes: upvotes } : {}),
            ...(typeof comments === 'number' ? { comments } : {}),
          },
        });
      } catch (error) {
        if (
          error instanceof PlatformError &&
          (error.status === 404 || /couldnt_find_post/.test(error.message))
        )
          results.set(platformPostId, { state: 'gone' });
        else throw error;
      }
    }
    return results;
  }

  /** The `community` field's choices: the communities the account's user is subscribed to. */
  async optionChoices(
    account: PlatformAccount,
    field: string,
    _values: Readonly<Record<string, string>>,
    context: PlatformCallContext,
  ): Promise<OptionChoice[]> {
    if (field !== 'community') return [];
    return subscribedCommunities(this.#api(account, context));
  }

  /** The community's subscribers: who sees what this account posts there. */
  async accountMetrics(
    account: PlatformAccount,
    context: PlatformCallContext,
  ): Promise<Partial<Record<AccountMetricName, number>>> {
    const community = await resolveCommunity(this.#api(account, context), account.platformAccountId);
    return community.subscribers === undefined ? {} : { followers: community.subscribers };
  }

  async #community(api: LemmyApi, named: string, fresh = false): Promise<Community> {
    const key = `${api.origin}\u0000${named.trim().toLowerCase()}`;
    const known = fresh ? undefined : this.#communities.get(key);
    if (known) return known;
    const community = await resolveCommunity(api, named);
    this.#communities.set(key, community);
    return community;
  }

  #api(account: PlatformAccount, context: CallContext | undefined): LemmyApi {
    const parsed = lemmyCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success)
      throw new PlatformError(
        'credentials_invalid',
        'Lemmy credentials need instanceUrl, username and a password or jwt',
      );
    const fetch: FetchLike | undefined = context?.accountHostFetch;
    return new LemmyApi(parsed.data, this.#sessions, {
      signal: context?.signal,
      fetch,
      // Keep the session with the account so another process need not log in again.
      onNewToken: (jwt) => context?.onCredentialsRefreshed?.({ ...account.credentials, jwt }),
    });
  }
}

function resultOf(api: LemmyApi, view: PostView): PublishResult {
  const id = view.post!.id!;
  return { platformPostId: String(id), url: `${api.origin}/post/${id}` };
}

/** `POST /pictrs/image` (multipart `images[]`) → `files[0].file`, served at `/pictrs/image/<file>`. */
async function uploadImage(api: LemmyApi, file: MediaFile): Promise<string> {
  const form = new FormData();
  const base = file.filename.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '') || 'image';
  form.append(
    'images[]',
    await file.blob(),
    base.includes('.') ? base : `${base}.${extensionFor(file.contentType)}`,
  );
  const answer = await api.call<{ msg?: string; files?: { file?: string }[] }>({
    method: 'POST',
    path: '/pictrs/image',
    operation: 'image',
    form,
    timeoutMs: uploadTimeoutMs,
  });
  const name = answer.files?.[0]?.file;
  if (!name || !/^[\w.-]{1,200}$/.test(name))
    throw new PlatformError(
      'media_rejected',
      `Lemmy did not store the image${answer.msg && answer.msg !== 'ok' ? ` (${answer.msg.slice(0, 100)})` : ''}`,
    );
  return `${api.origin}/pictrs/image/${name}`;
}

/** The account's post an earlier send created: newest in the community, same title, by this user, since that send. */
async function findPost(
  api: LemmyApi,
  community: Community,
  since: Date,
  wanted: { title: string; username: string },
): Promise<PostView | undefined> {
  const answer = await api.call<{ posts?: PostView[] }>({
    method: 'GET',
    path: '/api/v3/post/list',
    operation: 'read',
    query: { community_id: String(community.id), sort: 'New', limit: '20' },
  });
  const after = since.getTime() - lookupSlackMs;
  return answer.posts?.find(
    (view) =>
      typeof view.post?.id === 'number' &&
      sameText(view.post.name ?? '', wanted.title) &&
      view.creator?.name?.toLowerCase() === wanted.username.toLowerCase() &&
      Date.parse(
        view.post.published?.endsWith('Z') ? view.post.published : `${view.post.published ?? ''}Z`,
      ) >= after,
  );
}
