import type {
  PublicAccount,
  ImportReport as SdkImportReport,
  PresignResponse as SdkPresign,
  Problem as SdkProblem,
  QueueView as SdkQueueView,
  UploadResponse as SdkUpload,
  ValidationResponse as SdkValidation,
  StoredTargetResult,
} from '@postwave/shared';
import * as z from 'zod/mini';

/*
 * The answers the CLI reads, checked in api.ts before any command touches them: only the fields
 * the CLI reads (a server may send more). zod/mini, not the SDK's own schemas: those bring zod's
 * full build, which would make the one-file bundle 13 times larger and every run slower to start.
 * `SdkChecks` below keeps these shapes to what the SDK's types promise.
 */

const str = z.string();
const optStr = z.optional(z.string());
const nullStr = z.nullable(z.string());
const issue = z.object({ code: str, message: str, path: optStr, accountId: optStr });
const metrics = z.record(z.string(), z.number());

/** An RFC 9457 problem as Postwave answers it (a proxy's error page is not one). */
export const Problem = z.object({
  code: str,
  title: optStr,
  detail: optStr,
  errors: z.optional(z.array(issue)),
});

/** 204 No Content. */
export const NoContent = z.undefined();

/** Anything: the answer of a presigned upload URL (object storage, or the Scheduler's own). */
export const AnyAnswer = z.unknown();

export const Accounts = z.object({
  accounts: z.array(
    z.object({ id: str, platform: str, platformAccountId: str, label: optStr, username: optStr }),
  ),
});
export type Account = z.infer<typeof Accounts>['accounts'][number];

export const Media = z.object({
  id: str,
  key: str,
  url: str,
  filename: str,
  contentType: str,
  size: z.number(),
  storage: str,
});
export type Media = z.infer<typeof Media>;
export const Presign = z.object({ uploadUrl: str, method: str, headers: z.record(str, str), media: Media });
export type Presign = z.infer<typeof Presign>;
export const Upload = z.object({ media: Media });

const result = z.object({
  accountId: str,
  platform: str,
  status: str,
  url: optStr,
  error: z.optional(z.object({ message: str })),
  parts: z.optional(z.array(z.object({ index: z.number(), status: str, url: optStr }))),
  firstComment: z.optional(z.object({ status: str, url: optStr })),
});

/** The Scheduler's post (OpenAPI `Post`, declared in web/server/posts/schema.ts). */
export const PostView = z.object({
  id: str,
  status: str,
  message: str,
  accountIds: z.array(str),
  scheduledAt: nullStr,
  postedAt: nullStr,
  createdAt: str,
  results: z.array(result),
  // Absent from Schedulers older than approvals (contract G).
  approval: z.optional(
    z.nullable(
      z.object({
        requested: z.object({ postingMode: str, scheduledAt: optStr }),
        rejected: z.optional(z.object({ by: z.object({ name: str }), comment: str })),
      }),
    ),
  ),
});
export type PostView = z.infer<typeof PostView>;
export const PostPage = z.object({ posts: z.array(PostView), nextCursor: nullStr });
export type PostPage = z.infer<typeof PostPage>;

export const Validation = z.object({
  valid: z.boolean(),
  results: z.array(
    z.object({
      accountId: str,
      platform: str,
      valid: z.boolean(),
      errors: z.array(issue),
      warnings: z.array(issue),
    }),
  ),
  errors: z.optional(z.array(issue)),
});

export const ImportReport = z.object({
  rows: z.array(z.object({ index: z.number(), valid: z.boolean(), errors: z.array(issue), postId: optStr })),
  committed: z.boolean(),
});
export type ImportReport = z.infer<typeof ImportReport>;

export const QueueView = z.object({
  timezone: str,
  slots: z.array(z.object({ weekday: z.number(), time: str })),
  posts: z.array(z.object({ id: str, message: str, scheduledAt: str })),
  freeSlots: z.array(str),
});
export type QueueView = z.infer<typeof QueueView>;

/** OpenAPI `TemplateList` (web/server/templates/schema.ts). */
export const Templates = z.object({
  templates: z.array(z.object({ id: str, name: str, message: str, accountIds: z.array(str) })),
});

/** OpenAPI `WhoAmI` (web/server/cli-auth/schema.ts). */
export const WhoAmI = z.object({
  user: z.object({ id: str, email: str, name: nullStr }),
  token: z.nullable(z.object({ id: str, kind: str, name: str, expiresAt: nullStr })),
});

/** POST /api/cli/authorize: a CLI token always has an expiry (docs/cli.md). */
export const LoginResult = z.object({ token: str, expiresAt: str });

/** OpenAPI `PostMetrics` (web/server/analytics/schema.ts). */
export const PostMetrics = z.object({
  targets: z.array(
    z.object({
      accountId: str,
      platform: str,
      metrics,
      engagement: z.nullable(z.number()),
      collectedAt: nullStr,
      metricsState: str,
    }),
  ),
});
export type PostMetrics = z.infer<typeof PostMetrics>;

const totals = { posts: z.number(), engagement: z.optional(z.number()), metrics };
/** OpenAPI `AnalyticsSummary` (web/server/analytics/schema.ts). */
export const AnalyticsSummary = z.object({
  from: str,
  to: str,
  timezone: str,
  totals: z.object(totals),
  perAccount: z.array(z.object({ ...totals, accountId: str, platform: str })),
  topPosts: z.array(
    z.object({ postId: str, accountId: str, platform: str, message: str, engagement: z.number() }),
  ),
});
export type AnalyticsSummary = z.infer<typeof AnalyticsSummary>;

/** True when every value of the SDK's type `Sdk` passes `Shape`: the CLI asks for nothing more. */
type Passes<Sdk, Shape extends z.ZodMiniType> = [Sdk] extends [z.infer<Shape>] ? true : false;
type Holds<T extends true> = T;
/** Checked by the typecheck: a field renamed or dropped in the SDK fails here, not at a user's. */
export type SdkChecks = [
  Holds<Passes<SdkProblem, typeof Problem>>,
  Holds<Passes<{ accounts: PublicAccount[] }, typeof Accounts>>,
  Holds<Passes<SdkPresign, typeof Presign>>,
  Holds<Passes<SdkUpload, typeof Upload>>,
  Holds<Passes<StoredTargetResult, typeof result>>,
  Holds<Passes<SdkValidation, typeof Validation>>,
  Holds<Passes<SdkImportReport, typeof ImportReport>>,
  Holds<Passes<SdkQueueView, typeof QueueView>>,
];
