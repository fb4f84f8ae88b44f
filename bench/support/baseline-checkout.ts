import { execFileSync } from 'node:child_process';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A checkout of `ref` (a git worktree in `dir`) runnable beside today's code: its node_modules
 * links today's installed packages, except the workspace packages (`@postwave/*`), which point at
 * the checkout's own folders, so the old code runs, not today's. Dependencies that changed since
 * `ref` are today's versions; for exact ones, `npm ci` a worktree and pass its path instead.
 */
export async function checkoutBaseline(root: string, ref: string, dir: string): Promise<string> {
  execFileSync('git', ['-C', root, 'worktree', 'add', '--detach', dir, ref], { stdio: 'ignore' });
  const modules = join(dir, 'node_modules');
  await mkdir(join(modules, '@postwave'), { recursive: true });
  for (const entry of await readdir(join(root, 'node_modules'))) {
    if (entry === '@postwave') continue;
    await symlink(join(root, 'node_modules', entry), join(modules, entry));
  }
  for (const workspace of ['shared', 'selfhosted', 'web', 'cli']) {
    await symlink(join(dir, workspace), join(modules, '@postwave', workspace)).catch(() => {});
    await symlink(join(root, workspace, 'node_modules'), join(dir, workspace, 'node_modules')).catch(
      () => {},
    );
  }
  return dir;
}

export function removeBaseline(root: string, dir: string): void {
  execFileSync('git', ['-C', root, 'worktree', 'remove', '--force', dir], { stdio: 'ignore' });
}
