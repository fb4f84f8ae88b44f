import type { Context } from '../command.ts';
import { composeOptions, composePost } from '../post-request.ts';
import { Validation } from '../responses.ts';

export const summary = 'check a post without publishing';
export const synopsis = [
  ['validate <message>', 'check a post against its accounts without publishing'],
] as const;

export const help = `Usage: postwave validate <message> --account <id> [...] [--media <file> ...] [--json]

Takes the same options as postwave post (--alt-text, --thread, --override,
--first-comment). Checks the post against every account (text length, media count
and types, each thread part, first comment and alt text where the platform has them)
and publishes nothing. Exits 1 when the post is invalid.
`;

export const options = composeOptions;

export async function run(context: Context<typeof options>): Promise<number> {
  const api = context.api();
  const body = await composePost(context, api);
  const result = await api.request('POST', '/api/v1/validation', Validation, body);
  // Issues of the request as a whole (no accounts, an override for another account…) come first.
  const requestLines = (result.errors ?? []).map(
    (e) => `error: ${e.message} (${e.code}${e.path ? ` at ${e.path}` : ''})`,
  );
  const accountLines = result.results.map((r) => {
    const issues = [
      // The path says where: thread[1].message, accountOptions.<id>.firstComment, media[0].altText.
      ...r.errors.map((e) => `    error: ${e.message} (${e.code}${e.path ? ` at ${e.path}` : ''})`),
      ...r.warnings.map((w) => `    warning: ${w.message}`),
    ];
    return `${r.valid ? 'ok     ' : 'invalid'} ${r.accountId} (${r.platform})${issues.length ? `\n${issues.join('\n')}` : ''}`;
  });
  const lines = [...requestLines, ...accountLines];
  context.print(result, `${result.valid ? 'Valid' : 'Not valid'}\n${lines.join('\n')}\n`);
  return result.valid ? 0 : 1;
}
