import { type Context, type OptionSpecs, unexpectedArgument } from '../command.ts';
import { preview, table } from '../format.ts';
import { Templates } from '../responses.ts';

export const summary = 'list the workspace’s post templates';
export const synopsis = [['templates', 'list post templates (ids for post --template)']] as const;

export const help = `Usage: postwave templates [--json]

Lists the workspace's post templates with the ids that post --template takes.
Templates are made in the web app (Save as template) or with the API.
`;

export const options = {} as const satisfies OptionSpecs;

export async function run({ args, api, print }: Context<typeof options>): Promise<number> {
  if (args.length) throw unexpectedArgument('templates', args[0]!);
  const { templates } = await api().request('GET', '/api/v1/templates', Templates);
  const text = templates.length
    ? table(
        ['ID', 'NAME', 'ACCOUNTS', 'MESSAGE'],
        templates.map((t) => [t.id, t.name, String(t.accountIds.length), preview(t.message, 40)]),
      )
    : 'No templates yet: save one from the composer in the web app.\n';
  print({ templates }, text);
  return 0;
}
