import { z } from 'zod';
import { PlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { extensionFor } from '../../media/kinds.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { HostCache } from '../host-cache.ts';
import type { AccountMetricName } from '../manifest.ts';
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
  ValidationContext,
  ValidationOutcome,
} from '../types.ts';
import { MisskeyApi } from './api.ts';
import type { MisskeyConfig } from './config.ts';
import { defaultMaxNoteTextLength } from './limits.ts';
import { misskeyManifest } from './manifest.ts';
import { type MisskeyOptions, misskeyCredentialsSchema, misskeyOptionsSchema } from './options.ts';
import { validateMisskeyNote } from './validate.ts';

interface Note {
  id: string;
  text: string | null;
  cw?: string | null;
  fileIds?: string[];
  replyId?: string | null;
  createdAt?: string;
  reactionCount?: number;
  reactions?: Record<string, number>;
  repliesCount?: number;
  renoteCount?: number;
}

const meSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9]{1,64}$/),
  username: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/),
  name: z.string().nullable().optional(),
  avatarUrl: z.string().nullable().optional(),
  followersCount: z.number().int().nonnegative().optional(),
});

const uploadTimeoutMs = 10 * 60_000;

/** Publishes notes to any Misskey server with an access token: files to the drive, then `notes/create`. */
export class MisskeyPublisher implements Publisher<MisskeyOptions> {
  readonly id = misskeyManifest.id;
  readonly displayName = misskeyManifest.name;
  readonly optionsSchema = misskeyOptionsSchema;
  readonly credentialsSchema = misskeyCredentialsSchema;
  readonly concurrency: number;
  /** Misskey has no idempotency key: a resend first looks for the earlier note among the account's latest. */
  readonly dedupe = 'lookup' as const;
  readonly #textLimits: HostCache<number>;
  readonly #ledger = new SendLedger();

  constructor(config: MisskeyConfig) {
    this.concurrency = config.concurrency;
    this.#textLimits = new HostCache(config.instanceCacheTtlMs);
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
    _options: MisskeyOptions,
    context?: ValidationContext,
  ): Promise<ValidationOutcome> {
    const parsed = misskeyCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success) {
      return {
        errors: [
          {
            code: 'credentials_invalid',
            message: 'Misskey credentials need instanceUrl and accessToken',
            path: 'credentials',
          },
        ],
        warnings: [],
      };
    }
    const api = new MisskeyApi(
      new URL(parsed.data.instanceUrl).origin,
      undefined,
      undefined,
      context?.accountHostFetch,
    );
    const { value, fromServer } = await this.#textLimits.get(
      api.origin,
      () => readTextLimit(api),
      defaultMaxNoteTextLength,
    );
    const outcome = validateMisskeyNote(post, media, value);
    if (!fromServer) {
      outcome.warnings.push({
        code: 'instance_limits_unknown',
        message: `Could not read this Misskey server's limits; checked against Misskey's default of ${defaultMaxNoteTextLength} characters`,
      });
    }
    return outcome;
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: MisskeyOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const api = this.#api(account, context.signal, context.accountHostFetch);
    const replyId = context.replyTo?.parent.platformPostId;
    const earlier = this.#ledger.earlierSend(context);
    if (earlier) {
      const found = await findNote(api, account, earlier, {
        text: post.message,
        files: media.length,
        replyId,
      });
      if (found) return this.#result(api, found);
    }
    const fileIds: string[] = [];
    // In order: the note shows its files in `fileIds` order.
    for (const file of media) fileIds.push(await uploadFile(api, file));
    const text = post.message.trim() === '' ? undefined : post.message;
    this.#ledger.sending(context);
    const { createdNote } = await api.call<{ createdNote?: Note }>(
      'notes/create',
      replyId ? 'reply' : 'note',
      {
        visibility: options.visibility ?? 'public',
        ...(text !== undefined ? { text } : {}),
        ...(options.contentWarning ? { cw: options.contentWarning } : {}),
        ...(fileIds.length > 0 ? { fileIds } : {}),
        ...(replyId ? { replyId } : {}),
      },
    );
    if (!createdNote?.id)
      throw new PlatformError('platform_unavailable', 'Misskey answered without the created note');
    this.#ledger.done(context);
    return this.#result(api, createdNote);
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'accountHostFetch'>,
  ): Promise<AccountProfile> {
    const api = this.#api(account, context?.signal, context?.accountHostFetch);
    const me = await readMe(api);
    const name = me.name?.trim().slice(0, 64);
    return {
      name: name || me.username,
      username: `@${me.username}@${new URL(api.origin).host}`,
      platformAccountId: me.id,
      ...(me.avatarUrl && /^https?:\/\/\S{1,2000}$/.test(me.avatarUrl) ? { avatarUrl: me.avatarUrl } : {}),
    };
  }

  async metrics(
    targets: readonly MetricsTarget[],
    account: PlatformAccount,
    context: PlatformCallContext,
  ): Promise<Map<string, PostMetricsResult>> {
    const api = this.#api(account, context.signal, context.accountHostFetch);
    const results = new Map<string, PostMetricsResult>();
    for (const { platformPostId } of targets) {
      try {
        const note = await api.call<Note>('notes/show', 'show', { noteId: platformPostId });
        const reactions = Object.values(note.reactions ?? {}).filter((n) => Number.isFinite(n));
        const likes =
          note.reactionCount ?? (note.reactions ? reactions.reduce((a, b) => a + b, 0) : undefined);
        results.set(platformPostId, {
          state: 'ok',
          metrics: {
            ...(typeof likes === 'number' ? { likes } : {}),
            ...(typeof note.repliesCount === 'number' ? { comments: note.repliesCount } : {}),
            ...(typeof note.renoteCount === 'number' ? { reposts: note.renoteCount } : {}),
          },
        });
      } catch (error) {
        if (error instanceof PlatformError && error.status === 400 && /NO_SUCH_NOTE/.test(error.message)) {
          results.set(platformPostId, { state: 'gone' });
        } else throw error;
      }
    }
    return results;
  }

  async accountMetrics(
    account: PlatformAccount,
    context: PlatformCallContext,
  ): Promise<Partial<Record<AccountMetricName, number>>> {
    const me = await readMe(this.#api(account, context.signal, context.accountHostFetch));
    return me.followersCount === undefined ? {} : { followers: me.followersCount };
  }

  #result(api: MisskeyApi, note: Note): PublishResult {
    return { platformPostId: note.id, url: `${api.origin}/notes/${encodeURIComponent(note.id)}` };
  }

  #api(account: PlatformAccount, signal: AbortSignal | undefined, fetch?: FetchLike): MisskeyApi {
    const parsed = misskeyCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success)
      throw new PlatformError('credentials_invalid', 'Misskey credentials need instanceUrl and accessToken');
    return new MisskeyApi(new URL(parsed.data.instanceUrl).origin, parsed.data.accessToken, signal, fetch);
  }
}

/** `POST /api/meta`: the instance's `maxNoteTextLength` (public, no token). */
async function readTextLimit(api: MisskeyApi): Promise<number> {
  const meta = await api.call<{ maxNoteTextLength?: unknown }>('meta', 'meta', { detail: false });
  const value = meta.maxNoteTextLength;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0
    ? value
    : defaultMaxNoteTextLength;
}

async function readMe(api: MisskeyApi): Promise<z.infer<typeof meSchema>> {
  const parsed = meSchema.safeParse(await api.call<unknown>('i', 'account'));
  // The instance is whatever host the user named: keep only fields shaped like Misskey's.
  if (!parsed.success)
    throw new PlatformError(
      'platform_unavailable',
      `${new URL(api.origin).host} did not answer like a Misskey server`,
    );
  return parsed.data;
}

/** `drive/files/create`: multipart `file`, `name`, and the alt text as the file's `comment`. */
async function uploadFile(api: MisskeyApi, file: MediaFile): Promise<string> {
  const form = new FormData();
  const name = safeFilename(file);
  form.append('file', await file.blob(), name);
  form.append('name', name);
  if (file.altText) form.append('comment', file.altText);
  const uploaded = await api.upload<{ id?: string }>('drive/files/create', form, uploadTimeoutMs);
  if (!uploaded.id)
    throw new PlatformError('platform_unavailable', 'Misskey answered the upload without a file id');
  return uploaded.id;
}

/** The account's note an earlier send created: same text, as many files, same reply, made since it was sent. */
async function findNote(
  api: MisskeyApi,
  account: PlatformAccount,
  since: Date,
  wanted: { text: string; files: number; replyId: string | undefined },
): Promise<Note | undefined> {
  const userId = account.platformAccountId || (await readMe(api)).id;
  const notes = await api.call<Note[]>('users/notes', 'show', {
    userId,
    limit: 20,
    sinceDate: since.getTime() - lookupSlackMs,
    withReplies: true,
    withFiles: false,
  });
  if (!Array.isArray(notes)) return undefined;
  return notes.find(
    (note) =>
      typeof note?.id === 'string' &&
      sameText(note.text ?? '', wanted.text) &&
      (note.fileIds?.length ?? 0) === wanted.files &&
      (note.replyId ?? undefined) === wanted.replyId,
  );
}

function safeFilename(file: MediaFile): string {
  const base = file.filename.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '') || 'media';
  return base.includes('.') ? base : `${base}.${extensionFor(file.contentType)}`;
}
