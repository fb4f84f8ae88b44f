/**
 * Builds the installable CLI into cli/dist: one dependency-free ES module bundle (Node 22+),
 * its own package.json, README and LICENSE-free metadata, ready for `npm pack cli/dist`.
 *
 *   node cli/scripts/build.ts            # → cli/dist/
 *   node cli/scripts/build.ts --pack DIR # also runs npm pack into DIR; prints the tarball path
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const cliDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(cliDir, 'dist');
const source = JSON.parse(readFileSync(join(cliDir, 'package.json'), 'utf8')) as {
  version: string;
  description: string;
};

export async function buildCli(): Promise<string> {
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  await build({
    entryPoints: [join(cliDir, 'src', 'main.ts')],
    outfile: join(dist, 'postwave.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: false,
    legalComments: 'none',
    // main.ts carries the shebang; the bundle keeps it on its first line.
    logLevel: 'warning',
  });
  const manifest = {
    name: '@postwave/cli',
    version: source.version,
    description: source.description,
    type: 'module',
    bin: { postwave: 'postwave.mjs' },
    files: ['postwave.mjs', 'README.md'],
    engines: { node: '>=22' },
    keywords: ['postwave', 'social', 'scheduler', 'cli'],
  };
  writeFileSync(join(dist, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(join(cliDir, 'README.md'), join(dist, 'README.md'));
  return dist;
}

/** `npm pack` of the built folder into `destination`; returns the tarball's path. */
export function packCli(destination: string): string {
  mkdirSync(destination, { recursive: true });
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: dist,
    encoding: 'utf8',
    env: { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false' },
  });
  const [packed] = JSON.parse(output) as { filename: string }[];
  if (!packed) throw new Error('npm pack reported no tarball');
  return join(destination, packed.filename);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCli();
  const at = process.argv.indexOf('--pack');
  if (at >= 0) console.log(packCli(resolve(process.argv[at + 1] ?? '.')));
  else console.log(dist);
}
