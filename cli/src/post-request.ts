// Types only: the CLI bundle carries none of the SDK's code.
import type { AccountOptions, Overrides, ValidationRequest } from '@postwave/shared';
import type { Api } from './api.ts';
import { type Context, type OptionSpecs, UsageError } from './command.ts';
import type { Media } from './responses.ts';
import { uploadFile } from './upload.ts';

/** What `post` and `validate` both take to compose a post. */
export const composeOptions = {
  account: {
    type: 'string',
    short: 'a',
    multiple: true,
    summary: 'target account id',
    value: { name: 'account id' },
  },
  media: {
    type: 'string',
    short: 'm',
    multiple: true,
    summary: 'attach a file',
    value: { name: 'file', complete: 'file' },
  },
  'alt-text': {
    type: 'string',
    multiple: true,
    summary: 'alt text of the media, in order',
    value: { name: 'text' },
  },
  thread: { type: 'string', multiple: true, summary: 'one more post of the thread', value: { name: 'text' } },
  override: {
    type: 'string',
    multiple: true,
    summary: 'own text for one account (id=message)',
    value: { name: 'id=message' },
  },
  'first-comment': {
    type: 'string',
    multiple: true,
    summary: 'posted right after the post',
    value: { name: 'text' },
  },
} as const satisfies OptionSpecs;

/**
 * The post request the options describe (OpenAPI `ValidationRequest`; `post` adds the posting
 * mode), media uploaded first with a progress bar.
 */
export async function composePost(
  context: Context<typeof composeOptions>,
  api: Api,
): Promise<ValidationRequest>;
/** From a template (`post --template`): the message and accounts may come from it instead. */
export async function composePost(
  context: Context<typeof composeOptions>,
  api: Api,
  fromTemplate: boolean,
): Promise<Partial<ValidationRequest>>;
export async function composePost(
  { values, args, io }: Context<typeof composeOptions>,
  api: Api,
  fromTemplate = false,
): Promise<Partial<ValidationRequest>> {
  const message = fromTemplate && args.length === 0 ? undefined : messageFrom(args, io.readStdin);
  const accountIds = values.account ?? [];
  if (accountIds.length === 0 && !fromTemplate)
    throw new UsageError('Pass at least one --account <id> (see postwave accounts)');
  const altTexts = values['alt-text'] ?? [];
  if (altTexts.length > (values.media ?? []).length)
    throw new UsageError('Each --alt-text describes one --media, in order: give a --media for each');
  const thread = (values.thread ?? []).map((text) => ({ message: text }));
  // The SDK's maxThreadParts (OpenAPI `Thread`), not imported so the bundle stays free of it.
  if (thread.length > 25) throw new UsageError('A thread has at most 25 --thread parts');
  const overrides = perAccount(values.override ?? [], accountIds, '--override', true);
  const comments = perAccount(values['first-comment'] ?? [], accountIds, '--first-comment', false);
  const media: (Media & { altText?: string })[] = [];
  for (const [index, file] of (values.media ?? []).entries()) {
    const uploaded = await uploadFile(api, file, values.json ? undefined : io.progress);
    const altText = altTexts[index];
    media.push(altText ? { ...uploaded, altText } : uploaded);
  }
  const accountOptions: AccountOptions = Object.fromEntries(
    Object.entries(comments).map(([id, firstComment]) => [id, { firstComment }]),
  );
  const overridden: Overrides = Object.fromEntries(
    Object.entries(overrides).map(([id, text]) => [id, { message: text }]),
  );
  return {
    ...(message !== undefined ? { message } : {}),
    ...(accountIds.length ? { accountIds } : {}),
    ...(media.length ? { media } : {}),
    ...(thread.length ? { thread } : {}),
    ...(Object.keys(overridden).length ? { overrides: overridden } : {}),
    ...(Object.keys(accountOptions).length ? { accountOptions } : {}),
  };
}

function messageFrom(args: string[], readStdin: () => string): string {
  if (args.length === 0)
    throw new UsageError('Give the message as the first argument (or - to read standard input)');
  if (args.length > 1) throw new UsageError('Quote the message: postwave post "Hello world" --account <id>');
  return args[0] === '-' ? readStdin().replace(/\n$/, '') : args[0]!;
}

/**
 * `<id>=<text>` values keyed by account id. The id must be one of the --account ids (so text that
 * itself contains "=" is never misread); without one, `required` refuses it, otherwise the text
 * applies to every account.
 */
function perAccount(
  values: readonly string[],
  accountIds: readonly string[],
  flag: string,
  required: boolean,
): Record<string, string> {
  const byAccount: Record<string, string> = {};
  for (const value of values) {
    const split = value.indexOf('=');
    const id = split > 0 ? value.slice(0, split) : undefined;
    if (id && accountIds.includes(id)) {
      byAccount[id] = value.slice(split + 1);
    } else if (required) {
      throw new UsageError(`${flag} takes <account id>=<text>, with an id given to --account`);
    } else {
      for (const accountId of accountIds) byAccount[accountId] ??= value;
    }
  }
  return byAccount;
}
