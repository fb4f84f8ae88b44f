import { z } from 'zod';
import { PlatformError } from '../../src/errors.ts';
import type { PlatformFeatures } from '../../src/platforms/manifest.ts';
import type { PlatformTraits } from '../../src/platforms/registry.ts';
import type { AnyPublisher, PublishContext, PublishResult } from '../../src/platforms/types.ts';

/** What the test publisher was asked to do, one entry per call that reached it. */
export interface ChainCall {
  kind: 'publish' | 'comment';
  message: string;
  media: { key: string; altText?: string }[];
  idempotencyKey: string;
  /** For a reply: the parent's and root's platform post ids. */
  replyTo?: { parent: string; root: string; parentRef?: string };
  dedupeHandle?: string;
  resumed?: boolean;
  /** The platform post id it answered with; absent when the call failed. */
  postId?: string;
}

export interface ChainPublisherOptions {
  id?: string;
  features?: Partial<PlatformFeatures>;
  /** Whether the platform has comments (`Publisher.comment`); otherwise first comments are replies. */
  comments?: boolean;
  /** Text limit enforced by validate and declared in the traits. */
  maxLength?: number;
  /** Decides per call whether it fails (return the error to throw). */
  failOn?: (call: ChainCall) => PlatformError | undefined;
  dedupe?: AnyPublisher['dedupe'];
}

export interface ChainPublisher {
  publisher: AnyPublisher;
  traits: PlatformTraits;
  calls: ChainCall[];
  /** Successful calls only. */
  posted(): ChainCall[];
}

/**
 * A test-only platform with threads, replies and comments whose behaviour a test chooses: it
 * records every call (text, media alt text, idempotency key, reply target) and answers with
 * sequential post ids and a reply reference, so the posting service's chain logic is tested
 * without any real platform's quirks.
 */
export function chainPublisher(options: ChainPublisherOptions = {}): ChainPublisher {
  const id = options.id ?? 'chain';
  const maxLength = options.maxLength ?? 100;
  const calls: ChainCall[] = [];
  let next = 1;
  const features: PlatformFeatures = {
    thread: true,
    firstComment: true,
    altText: { maxLength: 50 },
    ...options.features,
  };
  const answer = (call: ChainCall): PublishResult => {
    calls.push(call);
    const failure = options.failOn?.(call);
    if (failure) throw failure;
    call.postId = `${id}-${next++}`;
    return {
      platformPostId: call.postId,
      url: `https://chain.test/${call.postId}`,
      replyRef: `ref:${call.postId}`,
    };
  };
  const common = (context: PublishContext) => ({
    idempotencyKey: context.idempotencyKey,
    ...(context.dedupeHandle ? { dedupeHandle: context.dedupeHandle } : {}),
    ...(context.resumed ? { resumed: true } : {}),
  });
  const publisher: AnyPublisher = {
    id,
    displayName: 'Chain',
    optionsSchema: z.strictObject({ tone: z.string().optional() }),
    credentialsSchema: z.object({}),
    concurrency: 4,
    dedupe: options.dedupe ?? 'idempotent-resend',
    dedupeHandle: (key) => `handle:${key}`,
    validate: async (post, _account, media) => {
      const errors = [];
      if (post.message.length > maxLength) {
        errors.push({ code: 'message_too_long', message: `Longer than ${maxLength}`, path: 'message' });
      }
      if (!post.message && media.length === 0) {
        errors.push({ code: 'message_required', message: 'Say something', path: 'message' });
      }
      return { errors, warnings: [] };
    },
    publish: async (post, _account, media, _options, context) =>
      answer({
        kind: 'publish',
        message: post.message,
        media: media.map((m) => ({ key: m.key, ...(m.altText ? { altText: m.altText } : {}) })),
        ...common(context),
        ...(context.replyTo
          ? {
              replyTo: {
                parent: context.replyTo.parent.platformPostId,
                root: context.replyTo.root.platformPostId,
                ...(context.replyTo.parent.replyRef ? { parentRef: context.replyTo.parent.replyRef } : {}),
              },
            }
          : {}),
      }),
    ...(options.comments
      ? {
          comment: async (parent, text, _account, _options, context) =>
            answer({
              kind: 'comment',
              message: text,
              media: [],
              ...common(context),
              replyTo: { parent: parent.platformPostId, root: parent.platformPostId },
            }),
        }
      : {}),
    verifyCredentials: async () => ({ name: 'Chain' }),
  };
  const traits: PlatformTraits = {
    features,
    text: {
      limit: maxLength,
      unit: 'characters',
      count: ({ message }) => ({ used: message.length, limit: maxLength, unit: 'characters' }),
    },
  };
  return { publisher, traits, calls, posted: () => calls.filter((c) => c.postId) };
}

/** A permanent failure a test scripts with `failOn`. */
export const rejected = (message = 'rejected by the test') =>
  new PlatformError('content_rejected', message, { retryable: false });
