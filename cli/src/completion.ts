/** `postwave completion bash|zsh`: scripts to source, e.g. `source <(postwave completion bash)`. */

const commands = [
  'login',
  'logout',
  'whoami',
  'accounts',
  'post',
  'validate',
  'posts',
  'import',
  'export',
  'queue',
  'completion',
  'help',
];
const postsSubcommands = ['list', 'show', 'delete'];
const globalFlags = ['--server', '--json', '--help', '--version'];
const flags: Record<string, string[]> = {
  login: ['--no-browser', '--device'],
  post: [
    '--account',
    '--media',
    '--alt-text',
    '--thread',
    '--override',
    '--first-comment',
    '--at',
    '--queue',
    '--draft',
  ],
  queue: ['--slot', '--timezone'],
  validate: ['--account', '--media', '--alt-text', '--thread', '--override', '--first-comment'],
  posts: ['--status', '--limit', '--cursor'],
  import: ['--dry-run'],
  export: ['--format', '--status', '--from', '--to', '--output'],
};
const statuses = ['draft', 'scheduled', 'posted', 'failed'];

const bash = `# postwave completion for bash. Load it with:
#   source <(postwave completion bash)
# or save it as ~/.local/share/bash-completion/completions/postwave
_postwave() {
  local cur prev cmd
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd="\${COMP_WORDS[1]}"
  case "$prev" in
    --media|-m|--output|-o) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
    --format) COMPREPLY=( $(compgen -W "csv json" -- "$cur") ); return ;;
    --status) COMPREPLY=( $(compgen -W "${statuses.join(' ')}" -- "$cur") ); return ;;
    --server|--account|-a|--at|--device|--limit|--cursor|--from|--to|--slot|--timezone|--alt-text|--thread|--override|--first-comment) return ;;
  esac
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${[...commands, ...globalFlags].join(' ')}" -- "$cur") )
    return
  fi
  case "$cmd" in
    posts)
      if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=( $(compgen -W "${postsSubcommands.join(' ')}" -- "$cur") ); return; fi ;;
    import)
      if [[ "$cur" != -* ]]; then COMPREPLY=( $(compgen -f -- "$cur") ); return; fi ;;
    queue)
      if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=( $(compgen -W "show set" -- "$cur") ); return; fi ;;
    completion)
      COMPREPLY=( $(compgen -W "bash zsh" -- "$cur") ); return ;;
    help)
      COMPREPLY=( $(compgen -W "${commands.join(' ')}" -- "$cur") ); return ;;
  esac
  local extra=""
  case "$cmd" in
${Object.entries(flags)
  .map(([command, list]) => `    ${command}) extra="${list.join(' ')}" ;;`)
  .join('\n')}
  esac
  COMPREPLY=( $(compgen -W "$extra ${globalFlags.join(' ')}" -- "$cur") )
}
complete -F _postwave postwave
`;

const zsh = `#compdef postwave
# postwave completion for zsh. Load it with:
#   source <(postwave completion zsh)
# or save it as _postwave in a directory on your $fpath.
_postwave() {
  local -a commands
  commands=(
    'login:connect this computer to your account'
    'logout:forget the stored token'
    'whoami:show the signed-in user and server'
    'accounts:list your connected social accounts'
    'post:publish now, schedule or save a draft'
    'validate:check a post without publishing'
    'posts:list, show or delete posts'
    'import:create posts from a CSV or JSON file'
    'export:write your posts as CSV or JSON'
    'queue:show or set an account's posting slots'
    'completion:print a shell completion script'
    'help:help for a command'
  )
  local -a global
  global=(
    '--server[the Scheduler URL]:url:'
    '--json[print machine-readable JSON]'
    '(-h --help)'{-h,--help}'[show help]'
    '(-v --version)'{-v,--version}'[show the version]'
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'postwave command' commands
    _arguments $global
    return
  fi
  case "$words[2]" in
    login) _arguments $global '--no-browser[print the URL instead of opening a browser]' '--device[device name]:name:' ;;
    post|validate)
      _arguments $global '*'{-a,--account}'[target account id]:account id:' '*'{-m,--media}'[attach a file]:file:_files' \\
        '*--alt-text[alt text of the media, in order]:text:' '*--thread[one more post of the thread]:text:' \\
        '*--override[own text for one account (id=message)]:id=message:' '*--first-comment[posted right after the post]:text:' \\
        '--at[schedule at (ISO 8601)]:datetime:' '--queue[next free queue slot]' '--draft[save as a draft]' ;;
    queue)
      if (( CURRENT == 3 )); then
        local -a sub; sub=('show' 'set'); _describe -t sub 'queue command' sub
      else
        _arguments $global '*--slot[days@HH:MM]:slot:' '--timezone[IANA zone]:zone:'
      fi ;;
    posts)
      if (( CURRENT == 3 )); then
        local -a sub; sub=(${postsSubcommands.map((s) => `'${s}'`).join(' ')}); _describe -t sub 'posts command' sub
      else
        _arguments $global '--status[filter by status]:status:(${statuses.join(' ')})' '--limit[page size]:n:' '--cursor[next page]:cursor:'
      fi ;;
    import) _arguments $global '--dry-run[check every row, create nothing]' '1:file:_files -g "*.(csv|json)"' ;;
    export)
      _arguments $global '--format[output format]:format:(csv json)' '--status[filter by status]:status:(${statuses.join(' ')})' \\
        '--from[from date]:date:' '--to[to date]:date:' '(-o --output)'{-o,--output}'[write to a file]:file:_files' ;;
    completion) _values 'shell' bash zsh ;;
    help) _describe -t commands 'postwave command' commands ;;
    *) _arguments $global ;;
  esac
}
if [[ "$funcstack[1]" = "_postwave" ]]; then _postwave "$@"; else compdef _postwave postwave; fi
`;

export function completionScript(shell: string | undefined): string | undefined {
  if (shell === 'bash') return bash;
  if (shell === 'zsh') return zsh;
  return undefined;
}
