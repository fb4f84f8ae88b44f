import type { CommandList } from '../command.ts';
import * as accounts from './accounts.ts';
import * as completion from './completion.ts';
import * as exportCommand from './export.ts';
import * as help from './help.ts';
import * as importCommand from './import.ts';
import * as login from './login.ts';
import * as logout from './logout.ts';
import * as post from './post.ts';
import * as posts from './posts.ts';
import * as queue from './queue.ts';
import * as stats from './stats.ts';
import * as templates from './templates.ts';
import * as validate from './validate.ts';
import * as version from './version.ts';
import * as whoami from './whoami.ts';

/**
 * Every command, by the name typed after `postwave`, in the order help and completion list them.
 * Dispatch, `postwave --help` and the completion scripts are built from this list.
 */
export const commands = {
  login,
  logout,
  whoami,
  accounts,
  post,
  templates,
  validate,
  posts,
  import: importCommand,
  export: exportCommand,
  queue,
  stats,
  completion,
  help,
  version,
} satisfies CommandList;
