import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';

// The server's Node flags (a capped young generation, see docs/operations.md "Memory") live in two
// places that start it, the start script and the image's CMD, and the memory soak reads the start
// script: they must agree.
const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

function startScriptFlags(): string[] {
  const { scripts } = JSON.parse(read('../package.json')) as { scripts: { start: string } };
  const [node, ...rest] = scripts.start.split(/\s+/);
  assert.equal(node, 'node');
  return rest.filter((word) => word.startsWith('--'));
}

function dockerCmdFlags(): string[] {
  const cmd = read('../Dockerfile')
    .split('\n')
    .find((line) => line.startsWith('CMD '));
  assert.ok(cmd, 'the Dockerfile has a CMD');
  const [node, ...rest] = JSON.parse(cmd.slice(4)) as string[];
  assert.equal(node, 'node');
  return rest.filter((word) => word.startsWith('--'));
}

it('the start script and the Dockerfile CMD run Node with the same flags', () => {
  assert.deepEqual(dockerCmdFlags(), startScriptFlags());
});

it('the young generation is capped (RSS growth under load, docs/operations.md)', () => {
  assert.ok(startScriptFlags().some((flag) => /^--max-semi-space-size=\d+$/.test(flag)));
});
