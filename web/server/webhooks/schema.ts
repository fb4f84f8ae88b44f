import { subscribableWebhookEvents, webhookEventTypes } from '@postwave/shared';
import { z } from 'zod';
import { webhookDeliveryStatuses } from '#server/db/schema.ts';
import { pageLimit } from '#server/http/query.ts';

/**
 * Events an endpoint subscribes to: at least one, no repeats. `webhook.test` is in the contract's
 * list, so it is accepted; it changes nothing, as a test event is sent whenever one is asked for.
 */
const Events = z
  .array(z.enum(webhookEventTypes))
  .min(1)
  .max(webhookEventTypes.length)
  .refine((events) => new Set(events).size === events.length, 'an event is listed twice')
  .meta({
    description: `Events to send: any of ${subscribableWebhookEvents.map((e) => `\`${e}\``).join(', ')}. \`webhook.test\` may be listed too; it changes nothing, as a test event is sent whenever one is asked for (POST …/test), subscribed or not.`,
  });

const Url = z.string().trim().min(1).max(2000).meta({
  description:
    'Where deliveries are POSTed. https on the default port only; private, loopback and metadata addresses are refused (422 `validation_failed`, error code `url_not_allowed`) unless the operator listed the host in ALLOW_PRIVATE_HOSTS. Redirects are not followed: a 3xx is a failed attempt.',
});

/** A webhook endpoint as listed: never its secret. */
export const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    disabledAt: z.string().nullable(),
    disabledReason: z.string().nullable().meta({
      description: 'Why the endpoint was turned off, e.g. after failing every attempt for a day.',
    }),
    failingSince: z.string().nullable().meta({
      description: 'The first failed attempt of the current run of failures; null once an attempt succeeds.',
    }),
    previousSecretExpiresAt: z.string().nullable().meta({
      description: 'After a rotation, deliveries are signed with the old secret too until this instant.',
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Webhook' });
export type WebhookView = z.infer<typeof Webhook>;

export const WebhookList = z.object({ webhooks: z.array(Webhook) });

/** The only answers that carry the signing secret, once: creation and rotation. */
export const WebhookWithSecret = Webhook.extend({
  secret: z.string().meta({
    description: 'The `whsec_…` signing secret. Shown only in this answer: store it now.',
  }),
}).meta({ id: 'WebhookWithSecret' });

export const CreateWebhookRequest = z.object({
  url: Url,
  events: Events,
  description: z.string().trim().max(500).optional(),
});

export const UpdateWebhookRequest = z
  .object({
    url: Url.optional(),
    events: Events.optional(),
    description: z.string().trim().max(500).nullable().optional(),
    enabled: z.boolean().optional().meta({
      description:
        '`true` turns a disabled endpoint on again (its failure count starts over and its paused deliveries go out); `false` pauses it.',
    }),
  })
  .meta({ id: 'UpdateWebhookRequest' });
export type WebhookPatch = z.infer<typeof UpdateWebhookRequest>;

export const WebhookAttempt = z
  .object({
    attemptedAt: z.string(),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    responseBody: z.string().nullable().meta({ description: 'The start of the reply (2 KiB at most).' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookDelivery = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    messageId: z.string().meta({ description: 'The `webhook-id` header: the same for every attempt.' }),
    eventType: z.enum(webhookEventTypes),
    status: z.enum(webhookDeliveryStatuses).meta({
      description:
        '`pending`: waiting for its first attempt or a retry (`nextAttemptAt`); `delivered`: a 2xx arrived within 15 s; `failed`: every retry of the schedule failed.',
    }),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
    payload: z.unknown().meta({ description: 'The body sent: `{ type, timestamp, data }`.' }),
    attemptLog: z.array(WebhookAttempt).meta({ description: 'Every attempt, newest first.' }),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryView = z.infer<typeof WebhookDelivery>;

export const DeliveryPage = z
  .object({ deliveries: z.array(WebhookDelivery), nextCursor: z.string().nullable() })
  .meta({ id: 'WebhookDeliveryPage' });

export const ListDeliveriesQuery = z.object({
  status: z.enum(webhookDeliveryStatuses).optional(),
  limit: pageLimit(),
  cursor: z.string().max(500).optional(),
});
export type DeliveryListOptions = z.infer<typeof ListDeliveriesQuery>;
