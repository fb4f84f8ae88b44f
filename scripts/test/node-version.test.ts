import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const check = join(root, 'scripts/check-node.cjs');
const { complaint, requiredMajor } = createRequire(import.meta.url)(check) as {
  complaint(version: string): string | undefined;
  requiredMajor(): number;
};

describe('the Node version', () => {
  it('is one number everywhere: package.json engines, .nvmrc and the container images', () => {
    const major = requiredMajor();
    assert.equal(major, 24);
    assert.equal(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node, `>=${major}`);
    assert.equal(readFileSync(join(root, '.nvmrc'), 'utf8').trim(), String(major));
    for (const dockerfile of ['web/Dockerfile', 'selfhosted/Dockerfile']) {
      const images = [...readFileSync(join(root, dockerfile), 'utf8').matchAll(/^FROM node:(\d+)/gm)];
      assert.ok(images.length > 0, dockerfile);
      for (const [, version] of images) assert.equal(Number(version), major, dockerfile);
    }
  });

  it('npm start and npm test check it first', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    for (const name of ['start', 'test', 'start:selfhosted', 'start:dispatcher'])
      assert.equal(scripts[`pre${name}`], 'node scripts/check-node.cjs', name);
  });

  it('an older Node gets one line naming the version needed and how to get it', () => {
    const line = complaint('20.20.2');
    assert.match(
      line!,
      /^Postwave needs Node\.js 24 or newer; this is Node\.js 20\.20\.2\. .*nvm install.*\.nvmrc/,
    );
    assert.ok(!line!.includes('\n'));
    assert.equal(complaint('24.0.0'), undefined);
    assert.equal(complaint(process.versions.node), undefined);
  });

  it('runs on the oldest Node at hand and stops it at once', () => {
    const run = spawnSync(process.execPath, [check], { encoding: 'utf8' });
    assert.equal(run.status, 0);
    assert.equal(run.stderr, '');
    // The machine's own Node (CI images keep an older one at /usr/bin/node), when it is older.
    const old = ['/usr/bin/node', '/usr/local/bin/node'].find(
      (node) =>
        existsSync(node) &&
        Number(spawnSync(node, ['-p', 'process.versions.node.split(".")[0]']).stdout?.toString()) <
          requiredMajor(),
    );
    if (!old) return;
    const refused = spawnSync(old, [check], { encoding: 'utf8' });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /^Postwave needs Node\.js 24 or newer; this is Node\.js \d+\.\d+\.\d+\. /);
    assert.equal(refused.stderr.trim().split('\n').length, 1);
  });
});
