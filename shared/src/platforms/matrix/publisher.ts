import { createHash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { HostCache } from '../host-cache.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PostContent,
  PublishContext,
  Publisher,
  PublishResult,
  ReplyTarget,
  ValidationContext,
  ValidationOutcome,
} from '../types.ts';
import { MatrixApi, segment } from './api.ts';
import type { MatrixConfig } from './config.ts';
import { textContent } from './content.ts';
import { matrixManifest } from './manifest.ts';
import { eventLink, mediaContent, uploadFile, uploadLimit } from './media.ts';
import {
  type MatrixCredentials,
  type MatrixOptions,
  matrixCredentialsSchema,
  matrixOptionsSchema,
} from './options.ts';
import { checkMembership, resolveRoom } from './room.ts';
import { HomeserverCache, type HomeserverInfo } from './server.ts';
import { validateMatrixPost } from './validate.ts';

type CallContext = { signal?: AbortSignal | undefined; accountHostFetch?: FetchLike | undefined };

/**
 * Posts to a Matrix room with an access token: the text as one m.room.message (body and HTML),
 * then each file uploaded to the content repository and sent as m.image / m.video / m.file.
 * Every event's transaction id derives from the publish's idempotency key, so a resend with the
 * same token is answered by the homeserver with the event it already has.
 */
export class MatrixPublisher implements Publisher<MatrixOptions> {
  readonly id = matrixManifest.id;
  readonly displayName = matrixManifest.name;
  readonly optionsSchema = matrixOptionsSchema;
  readonly credentialsSchema = matrixCredentialsSchema;
  readonly concurrency: number;
  readonly credentialConcurrency = 2;
  readonly dedupe = 'idempotent-resend' as const;
  readonly #servers: HomeserverCache;
  /** The homeserver's upload limit, per base URL, reused as long as its discovery. */
  readonly #uploadLimits: HostCache<number | undefined>;

  constructor(config: MatrixConfig) {
    this.concurrency = config.concurrency;
    this.#uploadLimits = new HostCache(config.serverCacheTtlMs);
    this.#servers = new HomeserverCache(config.serverCacheTtlMs);
  }

  /** One access token posts as one account (a digest: the token itself is never a key). */
  concurrencyKey(account: PlatformAccount): string | undefined {
    const token = account.credentials.accessToken;
    return typeof token === 'string' ? createHash('sha256').update(token).digest('base64url') : undefined;
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
    options: MatrixOptions,
    context?: ValidationContext,
  ): Promise<ValidationOutcome> {
    let limit: number | undefined;
    let unknown = false;
    const credentials = matrixCredentialsSchema.safeParse(account.credentials);
    if (media.length > 0 && credentials.success) {
      try {
        const { api, server } = await this.#connect(credentials.data, {
          accountHostFetch: context?.accountHostFetch,
        });
        limit = (
          await this.#uploadLimits.get(server.base, () => uploadLimit(api, server.versions), undefined)
        ).value;
      } catch {
        unknown = true;
      }
    }
    const outcome = validateMatrixPost(post, account, media, options, limit);
    if (unknown) {
      outcome.warnings.push({
        code: 'server_limits_unknown',
        message: "Could not read the homeserver's upload limit; the files are checked when they are sent",
      });
    }
    return outcome;
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: MatrixOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const { api, server } = await this.#connect(this.#credentials(account), context);
    const roomId = await resolveRoom(api, account.platformAccountId);
    const txn = transactionBase(context.idempotencyKey);
    const relation = context.replyTo ? threadRelation(context.replyTo) : {};
    const events: string[] = [];
    const send = async (index: number, content: object) => {
      const answer = await api.request<{ event_id?: unknown }>({
        method: 'PUT',
        path: `/_matrix/client/v3/rooms/${segment(roomId)}/send/m.room.message/${segment(`${txn}.${index}`)}`,
        operation: 'send',
        json: { ...content, ...relation },
      });
      if (typeof answer.event_id !== 'string' || !answer.event_id)
        throw new PlatformError(
          'platform_unavailable',
          'The homeserver accepted the event but returned no event id',
        );
      events.push(answer.event_id);
    };
    if (post.message.trim() !== '') await send(0, textContent(post.message, options.notice));
    // In order, one at a time: the room shows them in the order they are sent.
    for (const [index, file] of media.entries()) {
      await send(index + 1, mediaContent(file, await uploadFile(api, file, server)));
    }
    const first = events[0];
    if (!first) throw new PlatformError('content_rejected', 'A Matrix post needs text or a file');
    return { platformPostId: first, url: eventLink(roomId, first) };
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'accountHostFetch'>,
  ): Promise<AccountProfile> {
    const { api } = await this.#connect(this.#credentials(account), context);
    const whoami = await api.request<{ user_id?: unknown }>({
      method: 'GET',
      path: '/_matrix/client/v3/account/whoami',
      operation: 'account',
    });
    const userId = whoami.user_id;
    if (typeof userId !== 'string' || !/^@[^:\s]+:\S+$/.test(userId) || userId.length > 255)
      throw new PlatformError(
        'platform_unavailable',
        'The homeserver did not answer like a Matrix homeserver',
      );
    const room = account.platformAccountId.trim();
    if (!room)
      throw new PlatformError('target_unreachable', 'Name the room: its id (!abc:example.org) or alias');
    const roomId = await resolveRoom(api, room);
    const name = await checkMembership(api, roomId, userId);
    return { name: name ?? roomId, username: userId, platformAccountId: roomId };
  }

  #credentials(account: PlatformAccount): MatrixCredentials {
    const parsed = matrixCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success)
      throw new PlatformError(
        'credentials_invalid',
        'Matrix credentials need a homeserverUrl and an accessToken',
      );
    return parsed.data;
  }

  async #connect(
    credentials: MatrixCredentials,
    context: CallContext | undefined,
  ): Promise<{ api: MatrixApi; server: HomeserverInfo }> {
    const server = await this.#servers.get(
      credentials.homeserverUrl,
      context?.signal,
      context?.accountHostFetch,
    );
    return {
      api: new MatrixApi(server.base, credentials.accessToken, context?.signal, context?.accountHostFetch),
      server,
    };
  }
}

/** A transaction id per publish step, from its idempotency key: URL-safe, at most 40 characters. */
export function transactionBase(idempotencyKey: string): string {
  return `pw${createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 32)}`;
}

/** A thread part joins the thread of the first message, falling back to a reply for older clients. */
function threadRelation(replyTo: ReplyTarget): Record<string, unknown> {
  return {
    'm.relates_to': {
      rel_type: 'm.thread',
      event_id: replyTo.root.platformPostId,
      is_falling_back: true,
      'm.in_reply_to': { event_id: replyTo.parent.platformPostId },
    },
  };
}
