import type { PostingMode, PostRequest } from '@postwave/shared';
import { type Context, type OptionSpecs, UsageError } from '../command.ts';
import { composeOptions, composePost } from '../post-request.ts';
import { describePost } from '../post-view.ts';
import { PostView } from '../responses.ts';

export const summary = 'publish now, schedule or save a draft';
export const synopsis = [
  ['post <message>', 'publish now, schedule (--at), queue (--queue) or save a draft (--draft)'],
] as const;

export const help = `Usage: postwave post <message> --account <id> [--account <id> ...] [options]
       postwave post [<message>] --template <id> [options]

  -a, --account <id>   target account id (repeatable; see postwave accounts)
  -t, --template <id>  start from a template (see postwave templates): what the
                       template holds is used unless given here; a message or
                       --account given here replaces the template's
  -m, --media <file>   attach a file (repeatable); uploaded with a progress bar
  --alt-text <text>    alt text for the media, in order: the first --alt-text
                       describes the first --media (repeatable)
  --thread <text>      one more post after the message, published as a reply
                       chain (repeatable, up to 25, in order)
  --override <id>=<message>
                       that account's own text instead of the message (repeatable)
  --first-comment <text>
                       posted right after the post, on every account; or
                       <id>=<text> for one account (repeatable)
  --at <datetime>      schedule instead of publishing now (ISO 8601 with offset,
                       e.g. 2026-12-01T09:30:00+01:00)
  --queue              take the next free slot of every account's queue (see postwave
                       queue); with --at, the first free slot after that time
  --draft              save as a draft
  --repeat-every <days>
                       evergreen: post a copy again this many days after it posts
                       (7-365; Scheduler only, see docs/recycling.md)
  --repeat-times <n>   with --repeat-every: how many copies at most (1-52, default 3)
  --repeat-jitter <minutes>
                       with --repeat-every: move each copy by up to this many
                       minutes either way (0-240, default 0)
  --repeat-until <datetime>
                       with --repeat-every: no copy after this time (ISO 8601)
  --json               print the created post as JSON

The message may be "-" to read it from standard input. Platforms differ in what they
take (threads, first comments, alt text): postwave validate says what each account
refuses before anything is published.

Examples:
  postwave post "Hello world" --account 5f0c...
  postwave post "Launch day" -a 5f0c... -a 81ab... --media photo.jpg --alt-text "The team on stage" --at 2026-12-01T09:30:00+01:00
  postwave post "A thread (1/3)" -a 5f0c... --thread "Part two (2/3)" --thread "The end (3/3)"
  postwave post "Long announcement text" -a 5f0c... -a 81ab... --override 81ab...="Short version"
  postwave post "New video" -a 5f0c... --first-comment "Links in this comment"
  echo "From a pipe" | postwave post - --account 5f0c... --draft
  postwave post "In the next free slot" -a 5f0c... --queue
  postwave post --template 9d2e... --draft
`;

export const options = {
  ...composeOptions,
  template: { type: 'string', short: 't', summary: 'start from a template', value: { name: 'template id' } },
  at: { type: 'string', summary: 'schedule at (ISO 8601)', value: { name: 'datetime' } },
  queue: { type: 'boolean', summary: 'next free queue slot' },
  draft: { type: 'boolean', summary: 'save as a draft' },
  'repeat-every': { type: 'string', summary: 'evergreen: days between copies', value: { name: 'days' } },
  'repeat-times': { type: 'string', summary: 'how many copies at most', value: { name: 'n' } },
  'repeat-jitter': { type: 'string', summary: 'minutes each copy may move', value: { name: 'minutes' } },
  'repeat-until': { type: 'string', summary: 'no copy after (ISO 8601)', value: { name: 'datetime' } },
} as const satisfies OptionSpecs;

/** `recycle` from the --repeat-* flags; the server checks the limits and names a bad one. */
function recycleOf(values: Record<string, unknown>): Record<string, unknown> | undefined {
  const every = values['repeat-every'];
  const others = ['repeat-times', 'repeat-jitter', 'repeat-until'].filter((k) => values[k] !== undefined);
  if (every === undefined) {
    if (others.length) throw new UsageError(`--${others[0]} needs --repeat-every`);
    return undefined;
  }
  const whole = (flag: string, fallback: number) => {
    const raw = values[flag];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n)) throw new UsageError(`--${flag} takes a whole number`);
    return n;
  };
  return {
    intervalDays: whole('repeat-every', 0),
    maxTimes: whole('repeat-times', 3),
    jitterMinutes: whole('repeat-jitter', 0),
    ...(values['repeat-until'] !== undefined ? { until: values['repeat-until'] } : {}),
  };
}

export async function run(context: Context<typeof options>): Promise<number> {
  const { values, print } = context;
  if (values.at && values.draft) throw new UsageError('Use either --at (schedule) or --draft, not both');
  if (values.queue && values.draft) throw new UsageError('Use either --queue or --draft, not both');
  if (values.at && Number.isNaN(Date.parse(values.at)))
    throw new UsageError('--at takes an ISO 8601 date-time with an offset, e.g. 2026-12-01T09:30:00+01:00');
  const api = context.api();
  const postingMode: PostingMode = values.draft
    ? 'draft'
    : values.queue
      ? 'queue'
      : values.at
        ? 'schedule'
        : 'now';
  const template = values.template;
  const recycle = recycleOf(values);
  const body: Partial<PostRequest> & { templateId?: string; recycle?: Record<string, unknown> } = {
    ...(template
      ? { templateId: template, ...(await composePost(context, api, true)) }
      : await composePost(context, api)),
    postingMode,
    ...(values.at ? { scheduledAt: values.at } : {}),
    ...(recycle ? { recycle } : {}),
  };
  const post = await api.request('POST', '/api/v1/posts', PostView, body);
  print(post, describePost(post));
  return post.status === 'failed' ? 1 : 0;
}
