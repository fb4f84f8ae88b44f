import { AccountOptions, AltText, maxThreadParts } from '@postwave/shared';
import { z } from 'zod';
import { RecycleField } from '#server/posts/recycle-schema.ts';

/** Bodies over this many bytes are 413 before any parsing. */
export const maxImportBytes = 5 * 1024 * 1024;
/** Files with more data rows than this are 422 `too_many_rows` (split the file). */
export const maxImportRows = 1000;
/** Media URLs per row. */
export const maxMediaPerRow = 20;
/** New media URLs one import downloads (URLs fetched before, and our own media, do not count). */
export const maxMediaDownloads = 200;

// The report is the SDK's (shared/src/schemas/import-report.ts): the CLI reads it too.
export { ImportReport, ImportRowReport } from '@postwave/shared';

const MediaItem = z.union([
  z.string().max(4000),
  z.looseObject({
    key: z.string().max(300).optional(),
    url: z.string().max(4000).optional(),
    altText: AltText.optional(),
  }),
]);
const MediaItems = z
  .union([MediaItem, z.array(MediaItem).max(50)])
  .nullable()
  .optional();

/**
 * `overrides` and `thread` of an import row: as `POST /api/v1/posts` takes them, except that an
 * override may be keyed by an account handle too and media may be URLs (fetched like `media`).
 */
export const ImportComposerFields = z.object({
  overrides: z
    .record(z.string().max(300), z.object({ message: z.string().max(100_000).optional(), media: MediaItems }))
    .optional(),
  thread: z
    .array(z.object({ message: z.string().max(100_000), media: MediaItems }))
    .max(maxThreadParts)
    .optional(),
});

/**
 * One element of a JSON import: the post request of `POST /api/v1/posts` (an exported post reads
 * back as one too), composer fields included: `overrides`, `thread`, `accountOptions[id].firstComment`
 * and `altText` on media. `accountIds` and the keys of `overrides` and `accountOptions` may name
 * accounts by id or handle; media items (also in overrides and thread parts) are media objects
 * (resolved by key) or URLs (fetched). `postingMode` is `draft`, `schedule` or `queue`, default
 * `schedule` when `scheduledAt` is given, else `draft`. `recycle` is kept as `POST /api/v1/posts` keeps it.
 */
export const ImportPostRequest = z
  .object({
    templateId: z.string().optional().meta({
      description:
        'Starts the row from this template of the workspace, as `POST /api/v1/posts` does: each field the row leaves out is the template’s. An unknown one is the row’s error (`template_not_found`).',
    }),
    message: z.string().max(100_000).meta({ description: 'Required unless `templateId` supplies it.' }),
    accountIds: z.array(z.string().max(300)).max(100).default([]),
    postingMode: z.string().max(40).optional(),
    scheduledAt: z.string().max(100).nullable().optional(),
    media: MediaItems,
    accountOptions: AccountOptions.optional(),
    overrides: z.unknown().optional(),
    thread: z.unknown().optional(),
    // Without it an exported evergreen post read back as a plain one, silently.
    recycle: RecycleField,
  })
  .meta({ id: 'ImportPostRequest' });

export const ImportJsonBody = z.array(z.unknown()).meta({
  id: 'ImportJsonBody',
  description: 'An array of ImportPostRequest (the post request of POST /api/v1/posts).',
});

export const DryRunQuery = z.object({
  dryRun: z.enum(['true', 'false']).default('true'),
});
