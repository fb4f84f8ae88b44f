import { PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { accountIdIssue, numericId } from '../account-id.ts';
import { AttemptMemory } from '../attempt-memory.ts';
import { RefreshingToken, RefreshLocks } from '../refreshing-token.ts';
import { lookupSlackMs, SendLedger, sameText } from '../send-ledger.ts';
import type { AccountProfile, PlatformAccount, PublishContext, Publisher, PublishResult } from '../types.ts';
import { pinterestCall, pinterestList } from './api.ts';
import type { PinterestConfig } from './config.ts';
import { uploadPinterestVideo, waitForPinterestVideo } from './media.ts';
import type { PinterestBoard } from './oauth.ts';
import { refreshPinterestTokens } from './oauth.ts';
import {
  type PinterestCredentials,
  type PinterestOptions,
  pinterestCredentialsSchema,
  pinterestOptionsSchema,
} from './options.ts';
import { validatePinterestPin } from './validate.ts';

interface Pin {
  id?: string;
  title?: string | null;
  description?: string | null;
  created_at?: string;
  board_id?: string;
}

const pinUrl = (id: string) => `https://www.pinterest.com/pin/${id}/`;

/**
 * Pins to the account's board through Pinterest API v5: images by our public URL
 * (`image_url`, or `multiple_image_urls` for a carousel), a video through `POST /v5/media`,
 * upload and processing (`video_id`). Tokens are renewed ahead of expiry; Pinterest rotates the
 * refresh token, which is handed back to be stored (on the login's shared grant).
 */
export function createPinterestPublisher(config: PinterestConfig): Publisher<PinterestOptions> {
  const locks = new RefreshLocks();
  const ledger = new SendLedger();
  /** Videos uploaded for a publish, by idempotency key: a retry pins the same one. */
  const uploaded = new AttemptMemory<string>(6 * 60 * 60_000);

  function tokenFor(
    account: PlatformAccount,
    context: Partial<Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'logger'>> | undefined,
  ): RefreshingToken<PinterestCredentials> {
    const parsed = pinterestCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success) {
      throw new PlatformError(
        'credentials_invalid',
        'Pinterest credentials need an accessToken and a refreshToken',
      );
    }
    return new RefreshingToken(parsed.data, {
      // The boards of one login share its tokens: their refreshes queue behind each other.
      lockKey: parsed.data.userId ?? account.platformAccountId,
      platformName: 'Pinterest',
      locks,
      refresh: (refreshToken, signal) => refreshPinterestTokens(config, refreshToken, signal),
      stored: account.currentCredentials,
      signal: context?.signal,
      onRefreshed: context?.onCredentialsRefreshed,
      logger: context?.logger,
      // Access tokens live 30 days: renewed in their last week (the keeper's sweep verifies then).
      renewAheadMs: 7 * 24 * 60 * 60_000,
    });
  }

  /** The pin an earlier, unanswered attempt created on this board, if Pinterest lists it. */
  async function findEarlierPin(
    token: RefreshingToken<PinterestCredentials>,
    boardId: string,
    title: string | undefined,
    description: string,
    since: Date,
    signal: AbortSignal,
  ): Promise<PublishResult | undefined> {
    try {
      const pins = await token.use((accessToken) =>
        pinterestCall<{ items?: Pin[] }>(config.apiUrl, {
          method: 'GET',
          path: `/v5/boards/${encodeURIComponent(boardId)}/pins`,
          query: { page_size: '25' },
          accessToken,
          what: 'the board’s latest pins',
          signal,
        }),
      );
      const match = pins.items?.find(
        (pin) =>
          pin.id &&
          sameText(pin.description ?? '', description) &&
          (pin.title ?? '') === (title ?? '') &&
          (!pin.created_at || Date.parse(pin.created_at) >= since.getTime() - lookupSlackMs),
      );
      return match?.id ? { platformPostId: match.id, url: pinUrl(match.id) } : undefined;
    } catch {
      return undefined;
    }
  }

  async function mediaSource(
    token: RefreshingToken<PinterestCredentials>,
    media: readonly MediaFile[],
    context: PublishContext,
  ): Promise<Record<string, unknown>> {
    const video = media.find((file) => file.kind === 'video');
    if (video) {
      const mediaId =
        uploaded.get(context.idempotencyKey) ??
        (await uploadPinterestVideo(config, token, video, context.signal, (id) =>
          uploaded.set(context.idempotencyKey, id),
        ));
      await waitForPinterestVideo(config, token, mediaId, context.signal);
      // The first frame is the cover: Pinterest needs a cover image or key frame for a video pin.
      return { source_type: 'video_id', media_id: mediaId, cover_image_key_frame_time: 0 };
    }
    if (media.length === 1) return { source_type: 'image_url', url: media[0]!.url };
    return { source_type: 'multiple_image_urls', items: media.map((file) => ({ url: file.url })) };
  }

  return {
    id: 'pinterest',
    displayName: 'Pinterest',
    optionsSchema: pinterestOptionsSchema,
    credentialsSchema: pinterestCredentialsSchema,
    concurrency: 4,
    // Pinterest takes no idempotency key: a lost answer is settled by looking at the board's pins.
    dedupe: 'lookup',

    async validate(post, _account, media) {
      const outcome = validatePinterestPin(post, media);
      const id = accountIdIssue(_account, numericId, 'Pinterest', 'the numeric board id');
      if (id) outcome.errors.push(id);
      if (!pinterestCredentialsSchema.safeParse(_account.credentials).success) {
        outcome.errors.push({
          code: 'credentials_invalid',
          message: 'Pinterest credentials need an accessToken and a refreshToken',
        });
      }
      return outcome;
    },

    async optionChoices(account, field, _values, context) {
      if (field !== 'boardSectionId') return [];
      const token = tokenFor(account, context);
      const sections = await token.use((accessToken) =>
        pinterestList<{ id?: string; name?: string }>(config.apiUrl, {
          path: `/v5/boards/${encodeURIComponent(account.platformAccountId)}/sections`,
          accessToken,
          what: 'the board’s sections',
          signal: context.signal,
        }),
      );
      return sections.filter((s) => s.id).map((s) => ({ value: s.id!, label: s.name || s.id! }));
    },

    async publish(post, account, media, options, context): Promise<PublishResult> {
      const token = tokenFor(account, context);
      const boardId = account.platformAccountId;
      const earlier = ledger.earlierSend(context);
      if (earlier) {
        const found = await findEarlierPin(
          token,
          boardId,
          options.title,
          post.message,
          earlier,
          context.signal,
        );
        if (found) {
          ledger.done(context);
          return found;
        }
      }
      const source = await mediaSource(token, media, context);
      const altText = media.find((file) => file.altText)?.altText;
      const body = {
        board_id: boardId,
        ...(options.boardSectionId ? { board_section_id: options.boardSectionId } : {}),
        ...(options.title ? { title: options.title } : {}),
        ...(post.message ? { description: post.message } : {}),
        ...(options.link ? { link: options.link } : {}),
        ...(altText ? { alt_text: altText } : {}),
        media_source: source,
      };
      ledger.sending(context);
      const pin = await token.use((accessToken) =>
        pinterestCall<Pin>(config.apiUrl, {
          method: 'POST',
          path: '/v5/pins',
          body,
          accessToken,
          what: 'the pin',
          signal: context.signal,
        }),
      );
      ledger.done(context);
      uploaded.delete(context.idempotencyKey);
      if (!pin.id)
        throw new PlatformError('platform_unavailable', 'Pinterest answered the pin without an id');
      return { platformPostId: pin.id, url: pinUrl(pin.id) };
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const token = tokenFor(account, context);
      const board = await token.use((accessToken) =>
        pinterestCall<PinterestBoard>(config.apiUrl, {
          method: 'GET',
          path: `/v5/boards/${encodeURIComponent(account.platformAccountId)}`,
          accessToken,
          what: 'the board',
          signal: context?.signal,
        }),
      );
      return {
        name: board.name || account.platformAccountId,
        ...(board.owner?.username ? { username: board.owner.username } : {}),
        platformAccountId: board.id || account.platformAccountId,
      };
    },
  };
}
