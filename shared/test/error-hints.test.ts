import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { accountCallHint, errorHint, hintedCodes, withHint } from '../src/error-hints.ts';
import { PlatformError, platformErrorCodes } from '../src/errors.ts';
import { platformModules } from '../src/platforms/registry.ts';
import { platformProblem, problem } from '../src/problems.ts';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('error hints (contract section F: every platform error carries a hint)', () => {
  it('every platform error code of every platform has a hint of its own', () => {
    assert.ok(platformModules.length > 0);
    for (const module of platformModules) {
      for (const code of platformErrorCodes) {
        const error = new PlatformError(code, `${module.id} failed`);
        assert.ok(error.hint.length > 20, `${module.id}: ${code} has no hint`);
        assert.equal(error.toJSON().hint, error.hint);
        assert.ok(hintedCodes.includes(code));
      }
    }
  });

  it('every code a platform or the dispatcher writes into a target error has a written hint', () => {
    const found = new Map<string, string>();
    const files = [
      ...sources(join(root, 'shared', 'src')),
      ...sources(join(root, 'web', 'server')),
      ...sources(join(root, 'selfhosted', 'src')),
    ];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/new PlatformError\(\s*'([a-z_]+)'/g)) found.set(m[1]!, file);
      // A target error object literal: `code: '…', message: …, retryable: …`.
      for (const m of text.matchAll(/code: '([a-z_]+)',\s*message:[^}]{0,400}?retryable:/g))
        found.set(m[1]!, file);
    }
    assert.ok(
      found.has('outcome_unknown') && found.has('not_published'),
      'the scan finds the dispatch codes',
    );
    const missing = [...found].filter(([code]) => !hintedCodes.includes(code));
    assert.deepEqual(missing, [], 'codes without a written hint (add them to shared/src/error-hints.ts)');
  });

  it('a platform may give a more precise hint; stored errors without one get the code’s', () => {
    const precise = new PlatformError('target_unreachable', 'not_in_channel', {
      hint: 'Invite the app to the channel.',
    });
    assert.equal(precise.toJSON().hint, 'Invite the app to the channel.');
    const stored = { code: 'outcome_unknown', message: 'interrupted', retryable: false };
    assert.equal(withHint(stored).hint, errorHint('outcome_unknown'));
    assert.match(errorHint('some_validation_code'), /fix what it names/);
  });

  it('outside publishing every platform error code has a hint that asks no retry to happen by itself', () => {
    for (const context of ['connect', 'account'] as const) {
      for (const code of platformErrorCodes) {
        const hint = accountCallHint(new PlatformError(code, 'failed'), context);
        assert.ok(hint.length > 20, `${context}: ${code}`);
        assert.doesNotMatch(hint, /by themselves|posted twice/, `${context}: ${code}`);
      }
    }
    assert.match(accountCallHint({ code: 'credentials_invalid' }, 'connect'), /connect again/);
    const precise = new PlatformError('target_unreachable', 'not_in_channel', { hint: 'Invite the app.' });
    assert.equal(accountCallHint(precise, 'connect'), 'Invite the app.');
  });

  it('a problem only a platform answers with always carries a hint, on the problem and its issue', () => {
    assert.equal(problem('credentials_invalid', 'refused').hint, errorHint('credentials_invalid'));
    assert.equal(problem('target_unreachable', 'gone').hint, errorHint('target_unreachable'));
    assert.equal(
      problem('rate_limited', 'too many asks').hint,
      undefined,
      'our own limits have no platform hint',
    );
    const refused = platformProblem('credentials_invalid', 'X rejected the credentials', {
      hint: 'Copy it again.',
    });
    assert.equal(refused.hint, 'Copy it again.');
    assert.deepEqual(refused.errors, [
      { code: 'credentials_invalid', message: 'X rejected the credentials', hint: 'Copy it again.' },
    ]);
  });
});
