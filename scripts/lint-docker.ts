/**
 * Lints the Dockerfiles and compose files without a container engine (none runs in CI):
 * dockerfile-utils (the parser and validator behind VS Code's Docker support) for syntax and
 * instruction errors, plus the house rules every image here follows. Exit 1 on any finding.
 *
 *   node scripts/lint-docker.ts            # the repository's files
 *   node scripts/lint-docker.ts FILE...    # other files
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from 'dockerfile-utils';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dockerfiles = ['selfhosted/Dockerfile', 'web/Dockerfile'];
const composeFiles = ['compose.yaml', 'selfhosted/docker-compose.yml'];

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

/** Instructions with continuation lines joined; comments and blank lines dropped. */
export function instructions(text: string): Instruction[] {
  const result: Instruction[] = [];
  let current: Instruction | undefined;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!current && (line === '' || line.startsWith('#'))) return;
    if (current && line.startsWith('#')) return;
    const continued = line.endsWith('\\');
    const content = continued ? line.slice(0, -1).trim() : line;
    if (current) current.args += ` ${content}`;
    else {
      const [keyword = '', ...rest] = content.split(/\s+/);
      current = { keyword: keyword.toUpperCase(), args: rest.join(' '), line: index + 1 };
    }
    if (!continued) {
      result.push(current);
      current = undefined;
    }
  });
  if (current) result.push(current);
  return result;
}

/** House rules: pinned Node 24 bases, a non-root final stage, a healthcheck, exec-form CMD, lean installs. */
export function houseRules(text: string): string[] {
  const found: string[] = [];
  const all = instructions(text);
  const stages: Instruction[][] = [];
  for (const instruction of all) {
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  const stageNames = new Set(
    all
      .filter((i) => i.keyword === 'FROM')
      .map((i) => /\s+AS\s+(\S+)/i.exec(i.args)?.[1]?.toLowerCase())
      .filter(Boolean),
  );
  for (const from of all.filter((i) => i.keyword === 'FROM')) {
    const image = from.args.replace(/--platform=\S+\s+/, '').split(/\s+/)[0] ?? '';
    if (stageNames.has(image.toLowerCase())) continue;
    if (!image.includes(':') || image.endsWith(':latest'))
      found.push(`line ${from.line}: FROM ${image}: pin a tag (never latest)`);
    else if (image.startsWith('node:') && !/^node:24(\.|-|$)/.test(image))
      found.push(`line ${from.line}: FROM ${image}: the project runs on Node 24`);
  }
  const last = stages.at(-1) ?? [];
  const users = last.filter((i) => i.keyword === 'USER');
  const user = users.at(-1)?.args.trim();
  if (!user || user === 'root' || user === '0') found.push('final stage: set a non-root USER');
  if (!last.some((i) => i.keyword === 'HEALTHCHECK')) found.push('final stage: add a HEALTHCHECK');
  const cmd = last.filter((i) => i.keyword === 'CMD').at(-1);
  if (!cmd) found.push('final stage: add a CMD');
  else if (!cmd.args.trim().startsWith('['))
    found.push(`line ${cmd.line}: CMD in exec form (JSON array), so the process gets SIGTERM itself`);
  for (const i of all) {
    if (i.keyword === 'ADD' && /https?:\/\//.test(i.args))
      found.push(`line ${i.line}: ADD from a URL: download in a RUN step with a checksum`);
    if (i.keyword === 'RUN' && /\bapt-get install\b/.test(i.args)) {
      if (!/--no-install-recommends/.test(i.args))
        found.push(`line ${i.line}: apt-get install --no-install-recommends`);
      if (!/rm -rf \/var\/lib\/apt\/lists/.test(i.args))
        found.push(`line ${i.line}: remove /var/lib/apt/lists in the same RUN`);
    }
    if (i.keyword === 'RUN' && /\bnpm (install|i)\b/.test(i.args))
      found.push(`line ${i.line}: npm ci (the lockfile), not npm install`);
    if (i.keyword === 'RUN' && /\bcd\s+\S/.test(i.args)) found.push(`line ${i.line}: use WORKDIR, not cd`);
    if (i.keyword === 'WORKDIR' && !i.args.trim().startsWith('/'))
      found.push(`line ${i.line}: WORKDIR must be absolute`);
  }
  return found;
}

/** The compose files must check readiness and give SIGTERM time (no engine here to run them). */
export function composeRules(text: string): string[] {
  const found: string[] = [];
  if (/\t/.test(text)) found.push('tabs are not allowed in YAML');
  if (/healthcheck:/.test(text) && !/\/(ready|health)\b/.test(text))
    found.push('healthchecks must probe /ready');
  if (!/stop_grace_period:/.test(text))
    found.push('set stop_grace_period (in-flight publishes finish on SIGTERM)');
  for (const match of text.matchAll(/image:\s*(\S+)/g)) {
    const image = match[1]!;
    if (!image.includes(':') && !image.startsWith('postwave-')) found.push(`image ${image}: pin a tag`);
    if (image.endsWith(':latest')) found.push(`image ${image}: never latest`);
  }
  return found;
}

function lintDockerfile(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const diagnostics = validate(text).map(
    (d) => `line ${d.range.start.line + 1}: ${d.message}${d.code === undefined ? '' : ` [${d.code}]`}`,
  );
  return [...diagnostics, ...houseRules(text)];
}

const args = process.argv.slice(2);
const targets = args.length
  ? args.map((file) => resolve(file))
  : [...dockerfiles, ...composeFiles].map((file) => join(root, file));
let failures = 0;
for (const path of targets) {
  const isCompose = /\.ya?ml$/.test(path);
  const findings = isCompose ? composeRules(readFileSync(path, 'utf8')) : lintDockerfile(path);
  const name = relative(process.cwd(), path);
  for (const finding of findings) console.error(`${name}: ${finding}`);
  failures += findings.length;
  if (findings.length === 0) console.log(`${name}: ok`);
}
process.exit(failures ? 1 : 0);
