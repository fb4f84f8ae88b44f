import {
  AccountId,
  AccountOptions,
  MediaReference,
  Overrides,
  PostMediaObject,
  Thread,
} from '@postwave/shared';
import { z } from 'zod';

/*
 * Templates (docs/library.md#templates): the content fields of a post (contract section E) under a
 * name. The request pieces are the post request's own, so a template holds exactly what a post
 * can, checked the same way; platform validation waits until a post is made from it.
 */

const Media = z.union([MediaReference, z.array(MediaReference).max(50)]);
const Name = z.string().trim().min(1).max(200).meta({ description: 'Shown in the template picker.' });

export const Template = z
  .object({
    id: z.string(),
    name: z.string(),
    message: z.string(),
    media: z.array(PostMediaObject),
    accountIds: z.array(z.string()),
    accountOptions: AccountOptions,
    overrides: z.record(
      z.string(),
      z.object({ message: z.string().optional(), media: z.array(PostMediaObject).optional() }),
    ),
    thread: z.array(z.object({ message: z.string(), media: z.array(PostMediaObject) })),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Template' });
export type TemplateView = z.infer<typeof Template>;

export const TemplateList = z.object({ templates: z.array(Template) }).meta({ id: 'TemplateList' });

const contentFields = {
  message: z.string().max(100_000),
  accountIds: z.array(AccountId).max(100).meta({
    description:
      'Accounts a post made from it goes to; each must be one of the workspace’s (422 `account_not_found`).',
  }),
  media: Media.meta({ description: 'Media references (upload answers); resolved by `key`, alt text kept.' }),
  accountOptions: AccountOptions,
  overrides: Overrides,
  thread: Thread,
};

export const CreateTemplateRequest = z
  .object({
    name: Name,
    message: contentFields.message.default(''),
    accountIds: contentFields.accountIds.default([]),
    media: contentFields.media.optional(),
    accountOptions: contentFields.accountOptions.optional(),
    overrides: contentFields.overrides.optional(),
    thread: contentFields.thread.optional(),
  })
  .meta({ id: 'CreateTemplateRequest' });
export type CreateTemplateInput = z.infer<typeof CreateTemplateRequest>;

export const UpdateTemplateRequest = z
  .object({
    name: Name.optional(),
    message: contentFields.message.optional(),
    accountIds: contentFields.accountIds.optional(),
    media: contentFields.media.optional(),
    accountOptions: contentFields.accountOptions.optional(),
    overrides: contentFields.overrides.optional(),
    thread: contentFields.thread.optional(),
  })
  .meta({
    id: 'UpdateTemplateRequest',
    description:
      'Each field given replaces the stored one (`overrides: {}`, `thread: []` and `media: []` clear them); a field left out stays. Posts already made from the template do not change.',
  });
export type UpdateTemplateInput = z.infer<typeof UpdateTemplateRequest>;

/** How `POST /api/v1/posts` takes a template (documented on the route). */
export const TemplateIdField = z.string().min(1).max(100).meta({
  description:
    'Start from this template of the workspace: each post field left out of the request (`message`, `accountIds`, `media`, `accountOptions`, `overrides`, `thread`) is the template’s; a field sent replaces the template’s whole field (no merging inside it). An unknown template, or another workspace’s, is 422 `template_not_found` naming `templateId`.',
});
