import { type Context, type OptionSpecs, UsageError } from '../command.ts';
import { completionScript } from '../completion.ts';

export const summary = 'print a shell completion script';
export const synopsis = [
  ['completion bash|zsh', 'print a shell completion script (source <(postwave completion bash))'],
] as const;

export const help = `Usage: postwave completion <bash|zsh>

Prints a completion script for commands, options and --status values.

  bash:  source <(postwave completion bash)     (or save it in
         ~/.local/share/bash-completion/completions/postwave)
  zsh:   source <(postwave completion zsh)      (or save it as _postwave on your $fpath)
`;

export const options = {} as const satisfies OptionSpecs;

export const positional = { kind: 'word', name: 'shell', words: ['bash', 'zsh'] } as const;

export async function run({ values, args, io, commands }: Context<typeof options>): Promise<number> {
  if (values.json) throw new UsageError('postwave completion prints a shell script: it takes no --json');
  const script = completionScript(args[0], commands);
  if (!script) throw new UsageError('Usage: postwave completion <bash|zsh>');
  io.stdout(script);
  return 0;
}
