import { neventEncode } from 'nostr-tools/nip19';
import { makeAuthEvent } from 'nostr-tools/nip42';
import { finalizeEvent } from 'nostr-tools/pure';
import { PlatformError } from '../../errors.ts';
import { addressPolicyOf } from '../../http/safe-fetch.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { AttemptMemory } from '../attempt-memory.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PostContent,
  PublishContext,
  Publisher,
  PublishResult,
  ValidationContext,
  ValidationOutcome,
} from '../types.ts';
import type { NostrConfig } from './config.ts';
import { nostrIdentity } from './keys.ts';
import { nostrManifest } from './manifest.ts';
import { noteTemplate } from './note.ts';
import { type NostrOptions, nostrCredentialsSchema, nostrOptionsSchema } from './options.ts';
import { type RelayAnswer, sendToRelay } from './relay.ts';
import { validateNostrNote } from './validate.ts';

/**
 * Signs NIP-01 kind-1 notes with the account's key and sends them to its relays in parallel over
 * WebSocket. Posted when at least one relay answers `OK true`; every relay's answer is in the
 * result's `details.relays`.
 */
export class NostrPublisher implements Publisher<NostrOptions> {
  readonly id = nostrManifest.id;
  readonly displayName = nostrManifest.name;
  readonly optionsSchema = nostrOptionsSchema;
  readonly credentialsSchema = nostrCredentialsSchema;
  readonly concurrency: number;
  /**
   * A resend signs the same event: its `created_at` is the stored publish intent's handle and its
   * content follows from the post alone, so the id is the same and relays answer "duplicate".
   */
  readonly dedupe = 'idempotent-resend' as const;
  readonly #config: NostrConfig;
  /** `created_at` per idempotency key for retries in this process when no intent was stored (self-hosted). */
  readonly #createdAt = new AttemptMemory<number>(24 * 60 * 60_000);

  constructor(config: NostrConfig) {
    this.#config = config;
    this.concurrency = config.concurrency;
  }

  /** The note's `created_at` (Unix seconds), chosen before the first send and stored with the intent. */
  dedupeHandle(): string {
    return String(Math.floor(Date.now() / 1000));
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
    options: NostrOptions,
    _context?: ValidationContext,
  ): Promise<ValidationOutcome> {
    const outcome = validateNostrNote(post, media);
    try {
      nostrIdentity(account);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      outcome.errors.push({ code: 'credentials_invalid', message: error.message, path: 'credentials' });
    }
    if ((options.relays ?? this.#config.relays).length === 0) {
      outcome.errors.push({
        code: 'relays_required',
        message: 'No Nostr relays to publish to: set NOSTR_RELAYS on the server, or the relays option',
        path: 'relays',
      });
    }
    return outcome;
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: NostrOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const identity = nostrIdentity(account);
    // The operator's NOSTR_RELAYS are trusted; relays a user named (a Scheduler account's, any
    // request's) come with an SSRF-safe accountHostFetch and follow its address policy.
    const relays = options.relays ?? this.#config.relays;
    const policy = options.relays ? addressPolicyOf(context.accountHostFetch) : undefined;
    if (relays.length === 0)
      throw new PlatformError('target_unreachable', 'No Nostr relays to publish to (set NOSTR_RELAYS)', {
        retryable: false,
      });
    const template = await noteTemplate({
      message: post.message,
      media,
      replyTo: context.replyTo,
      createdAt: this.#plannedCreatedAt(context),
      pubkey: identity.pubkey,
    });
    const event = finalizeEvent(template, identity.secretKey);
    const answers = await Promise.all(
      relays.map((relay) =>
        sendToRelay(relay, event, {
          policy,
          timeoutMs: this.#config.relayTimeoutMs,
          signal: context.signal,
          authenticate: (url, challenge) => finalizeEvent(makeAuthEvent(url, challenge), identity.secretKey),
        }),
      ),
    );
    const outcomes = answers.map(({ permanent: _, ...outcome }) => outcome);
    context.logger.info(
      { platform: this.id, eventId: event.id, relays: outcomes.map((o) => `${o.url} ${o.status}`) },
      'nostr note sent',
    );
    const accepted = outcomes.filter((o) => o.status === 'accepted').map((o) => o.url);
    if (accepted.length === 0) throw noRelayAccepted(answers);
    const nevent = neventEncode({
      id: event.id,
      relays: accepted.slice(0, 3),
      author: identity.pubkey,
      kind: 1,
    });
    return {
      platformPostId: event.id,
      url: `${this.#config.webUrl}/${nevent}`,
      replyRef: accepted[0]!,
      details: { relays: outcomes },
    };
  }

  async verifyCredentials(account: PlatformAccount): Promise<AccountProfile> {
    const { npub } = nostrIdentity(account);
    return { name: `${npub.slice(0, 12)}…${npub.slice(-6)}`, username: npub, platformAccountId: npub };
  }

  #plannedCreatedAt(context: PublishContext): number {
    const stored = Number(context.dedupeHandle);
    if (Number.isSafeInteger(stored) && stored > 0) return stored;
    const earlier = this.#createdAt.get(context.idempotencyKey);
    if (earlier !== undefined) return earlier;
    const now = Math.floor(Date.now() / 1000);
    this.#createdAt.set(context.idempotencyKey, now);
    return now;
  }
}

/** Why no relay took the note: retryable while a relay may still answer, permanent when all refused it. */
function noRelayAccepted(answers: readonly RelayAnswer[]): PlatformError {
  const summary = answers.map(describe).join('; ');
  const message = `No relay accepted the note: ${summary}`;
  if (answers.every((a) => a.permanent))
    return new PlatformError('target_unreachable', message, { retryable: false });
  const transient = answers.filter(
    (a) => a.status === 'timeout' || (a.status === 'unreachable' && !a.permanent),
  );
  if (transient.length > 0)
    return new PlatformError(
      transient.every((a) => a.status === 'timeout') ? 'timeout' : 'network_error',
      message,
    );
  if (answers.some((a) => a.message?.startsWith('rate-limited:')))
    return new PlatformError('rate_limited', message);
  return new PlatformError('content_rejected', message, { retryable: false });
}

function describe(answer: RelayAnswer): string {
  if (answer.status === 'refused') return `${answer.url} refused it (${answer.message})`;
  if (answer.status === 'timeout') return `${answer.url} did not answer (${answer.message})`;
  return `${answer.url} could not be reached (${answer.message})`;
}
