import type { CommandList } from './command.ts';

/** `postwave --help`: the commands' synopsis lines, then the global options. */
export function overview(commands: CommandList): string {
  const lines = Object.values(commands).flatMap((command) =>
    (command.synopsis ?? []).map(([usage, text]) => `  ${usage.padEnd(22)}${text}`),
  );
  return `postwave: publish and schedule posts on a Postwave Scheduler.

Usage: postwave <command> [options]

Commands:
${lines.join('\n')}

Global options:
  --server <url>        the Scheduler (default: POSTWAVE_URL, then the server you logged in to)
  --json                print machine-readable JSON
  -h, --help            help for any command (e.g. postwave post --help)
  -v, --version         print the version

Environment: POSTWAVE_URL, POSTWAVE_TOKEN (use a token instead of the stored one),
POSTWAVE_CONFIG_DIR (default: $XDG_CONFIG_HOME/postwave or ~/.config/postwave).

Exit codes:
  0  done
  1  failed: the server refused or could not do it, could not be reached, or did not
     answer like Postwave; a post or import row is invalid; a publish failed; a file
     cannot be read
  2  usage error: an unknown option or one of another command, a malformed value,
     a missing or extra argument, no server or login to use
`;
}
