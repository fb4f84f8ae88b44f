import { z } from 'zod';
import { actionTypes, topicTypes } from './limits.ts';

const when = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/,
    'must be a date (2026-12-01), a local time (2026-12-01T18:00) or an ISO 8601 instant',
  );

/** Per-post Google Business Profile options (contract section C). Strict: a misspelt key is refused. */
export const googleBusinessOptionsSchema = z
  .strictObject({
    topicType: z
      .enum(topicTypes)
      .optional()
      .meta({ description: 'The kind of local post. Default: STANDARD (an update).' }),
    callToAction: z
      .strictObject({
        actionType: z.enum(actionTypes),
        url: z.url({ protocol: /^https?$/ }).optional(),
      })
      .optional()
      .meta({
        description:
          'A button under the post; `url` is required except for CALL (the location phone). Not for offers.',
      }),
    event: z
      .strictObject({ title: z.string().optional(), start: when.optional(), end: when.optional() })
      .optional()
      .meta({
        description:
          "An event's (and an offer's) title and period. A date or a local time is sent as written; an instant is written in GOOGLE_BUSINESS_TIME_ZONE (default UTC).",
      }),
    offer: z
      .strictObject({
        couponCode: z.string().optional(),
        redeemUrl: z.url({ protocol: /^https?$/ }).optional(),
        terms: z.string().optional(),
      })
      .optional()
      .meta({ description: 'An offer: coupon code, where to redeem it online, terms and conditions.' }),
  })
  .meta({ id: 'GoogleBusinessOptions' });
export type GoogleBusinessOptions = z.infer<typeof googleBusinessOptionsSchema>;

export const googleBusinessCredentialsSchema = z
  .object({
    clientId: z.string().min(1),
    clientSecret: z.string().min(1),
    refreshToken: z.string().min(1),
    accessToken: z.string().min(1).optional(),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
      .optional()
      .meta({ description: 'When accessToken expires: ISO 8601, or milliseconds since the epoch.' }),
    scope: z.string().optional(),
  })
  .meta({ id: 'GoogleBusinessCredentials' });
export type GoogleBusinessCredentials = z.infer<typeof googleBusinessCredentialsSchema>;
