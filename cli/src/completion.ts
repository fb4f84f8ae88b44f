/**
 * `postwave completion bash|zsh`: scripts to source (`source <(postwave completion bash)`), built
 * from the command list: its names and summaries, each command's options and what the word after
 * the command completes to.
 */
import {
  type Command,
  type CommandList,
  globalOptions,
  type OptionSpec,
  type OptionSpecs,
} from './command.ts';

export function completionScript(shell: string | undefined, commands: CommandList): string | undefined {
  if (shell === 'bash') return bash(commands);
  if (shell === 'zsh') return zsh(commands);
  return undefined;
}

/** The commands completion offers (those with a summary), by name. */
function offered(commands: CommandList): [string, Command][] {
  return Object.entries(commands).filter(([, command]) => command.summary);
}

const longFlags = (options: OptionSpecs) => Object.keys(options).map((name) => `--${name}`);

function bash(commands: CommandList): string {
  const names = offered(commands).map(([name]) => name);
  const globalFlags = longFlags(globalOptions);
  // What follows an option that takes a value: files, one of its words, or nothing to complete.
  const valued = new Map<string, OptionSpec>();
  for (const options of [globalOptions, ...Object.values(commands).map((c) => c.options)]) {
    for (const [name, option] of Object.entries(options as OptionSpecs))
      if (option.type === 'string' && !valued.has(name)) valued.set(name, option);
  }
  const arms = new Map<string, string[]>();
  for (const [name, option] of valued) {
    const complete = option.value?.complete;
    const action =
      complete === 'file'
        ? 'COMPREPLY=( $(compgen -f -- "$cur") ); return'
        : complete
          ? `COMPREPLY=( $(compgen -W "${complete.join(' ')}" -- "$cur") ); return`
          : 'return';
    const flags = arms.get(action) ?? [];
    flags.push(`--${name}`, ...(option.short ? [`-${option.short}`] : []));
    arms.set(action, flags);
  }
  // Options without a completion last: their arm only stops the rest from completing.
  const byPrevious = [...arms]
    .sort(([a], [b]) => Number(a === 'return') - Number(b === 'return'))
    .map(([action, flags]) => `    ${flags.join('|')}) ${action} ;;`);
  const positionals = offered(commands).flatMap(([name, { positional }]) => {
    if (!positional) return [];
    if (positional.kind === 'subcommand')
      return [
        `    ${name})`,
        `      if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=( $(compgen -W "${positional.words.join(' ')}" -- "$cur") ); return; fi ;;`,
      ];
    if (positional.kind === 'file')
      return [
        `    ${name})`,
        `      if [[ "$cur" != -* ]]; then COMPREPLY=( $(compgen -f -- "$cur") ); return; fi ;;`,
      ];
    const words = positional.words === 'commands' ? names : positional.words;
    return [`    ${name})`, `      COMPREPLY=( $(compgen -W "${words.join(' ')}" -- "$cur") ); return ;;`];
  });
  const flagsOf = offered(commands)
    .filter(([, command]) => Object.keys(command.options).length)
    .map(([name, command]) => `    ${name}) extra="${longFlags(command.options).join(' ')}" ;;`);
  return `# postwave completion for bash. Load it with:
#   source <(postwave completion bash)
# or save it as ~/.local/share/bash-completion/completions/postwave
_postwave() {
  local cur prev cmd
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd="\${COMP_WORDS[1]}"
  case "$prev" in
${byPrevious.join('\n')}
  esac
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${[...names, ...globalFlags].join(' ')}" -- "$cur") )
    return
  fi
  case "$cmd" in
${positionals.join('\n')}
  esac
  local extra=""
  case "$cmd" in
${flagsOf.join('\n')}
  esac
  COMPREPLY=( $(compgen -W "$extra ${globalFlags.join(' ')}" -- "$cur") )
}
complete -F _postwave postwave
`;
}

/** `text` in single quotes for zsh. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** One `_arguments` spec, e.g. `'*'{-a,--account}'[target account id]:account id:'`. */
function zshOption(name: string, option: OptionSpec): string {
  const complete = option.value?.complete;
  const action = complete === 'file' ? '_files' : complete ? `(${complete.join(' ')})` : '';
  const value = option.type === 'string' ? `:${option.value?.name ?? name}:${action}` : '';
  const described = `[${option.summary.replaceAll(']', '\\]')}]${value}`;
  const repeat = option.multiple ? '*' : '';
  if (!option.short) return quote(`${repeat}--${name}${described}`);
  // Both spellings; a single option excludes a second use of either.
  return `${quote(repeat || `(-${option.short} --${name})`)}{-${option.short},--${name}}${quote(described)}`;
}

const zshOptions = (options: OptionSpecs) =>
  Object.entries(options).map(([name, option]) => zshOption(name, option));

/** The `_arguments` call for the words after `postwave <name>` (zsh has shifted them to the front). */
function zshArm(name: string, command: Command, names: string[]): string | undefined {
  const { positional } = command;
  if (!positional && !Object.keys(command.options).length) return undefined;
  if (positional?.kind === 'word') {
    const words = positional.words === 'commands' ? names : positional.words;
    return `        ${name}) _arguments ${quote(`1:${positional.name}:(${words.join(' ')})`)} ;;`;
  }
  const first =
    positional?.kind === 'subcommand'
      ? `1:${name} command:(${positional.words.join(' ')})`
      : positional?.kind === 'file'
        ? `1:file:_files${positional.glob ? ` -g "${positional.glob}"` : ''}`
        : undefined;
  const specs = [...zshOptions(command.options), ...(first ? [quote(first)] : []), quote('*: :')];
  return `        ${name}) _arguments $global ${specs.join(' ')} ;;`;
}

function zsh(commands: CommandList): string {
  const names = offered(commands).map(([name]) => name);
  const described = offered(commands).map(
    ([name, command]) => `    ${quote(`${name}:${command.summary!.replaceAll(':', '\\:')}`)}`,
  );
  const arms = offered(commands)
    .map(([name, command]) => zshArm(name, command, names))
    .filter((arm) => arm !== undefined);
  return `#compdef postwave
# postwave completion for zsh. Load it with:
#   source <(postwave completion zsh)
# or save it as _postwave in a directory on your $fpath.
_postwave() {
  local -a commands global
  commands=(
${described.join('\n')}
  )
  global=(
${zshOptions(globalOptions)
  .map((spec) => `    ${spec}`)
  .join('\n')}
  )
  local curcontext="$curcontext" state line
  _arguments -C $global '1: :->command' '*:: :->argument' && return
  case $state in
    command) _describe -t commands 'postwave command' commands ;;
    argument)
      case $words[1] in
${arms.join('\n')}
        *) _arguments $global '*: :' ;;
      esac ;;
  esac
}
if [[ "$funcstack[1]" = "_postwave" ]]; then _postwave "$@"; else compdef _postwave postwave; fi
`;
}
