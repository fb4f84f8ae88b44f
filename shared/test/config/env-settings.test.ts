import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import {
  envConfig,
  envConfigMessage,
  envFlag,
  envPort,
  envVariables,
  fromEnv,
  fromEnvFamily,
} from '../../src/config/env-settings.ts';

const settings = {
  port: fromEnv('PORT', envPort.default(3000)),
  server: {
    debug: fromEnv('DEBUG', envFlag.default(false)),
    name: fromEnv('NAME', z.string().optional()),
  },
  limits: fromEnvFamily('LIMIT_<NAME>', (env) => {
    const bad = Object.keys(env).find((k) => k.startsWith('LIMIT_') && !/^\d+$/.test(env[k] ?? ''));
    if (bad) throw new Error(`${bad} must be a number`);
    return Object.keys(env).filter((k) => k.startsWith('LIMIT_')).length;
  }),
};
const schema = envConfig(settings);

describe('settings declared once', () => {
  it('reads the environment into the tree, with defaults; blank means unset, values are trimmed', () => {
    assert.deepEqual(schema.parse({}), { port: 3000, server: { debug: false, name: undefined }, limits: 0 });
    assert.deepEqual(schema.parse({ PORT: ' 8080 ', DEBUG: 'yes', NAME: '  ', LIMIT_A: '1' }), {
      port: 8080,
      server: { debug: true, name: undefined },
      limits: 1,
    });
  });

  it('reports every bad variable, each line naming it', () => {
    const result = schema.safeParse({ PORT: '70000', DEBUG: 'maybe', LIMIT_A: 'x' });
    assert.equal(result.success, false);
    const message = envConfigMessage(result.error!);
    assert.match(message, /^Invalid configuration:\n/);
    assert.match(message, /\n {2}PORT: must be a port number from 0 to 65535, got "70000"/);
    assert.match(message, /\n {2}DEBUG: must be true or false/);
    assert.match(message, /\n {2}LIMIT_A must be a number/);
    assert.equal(message.split('\n').length, 4);
  });

  it('lists the variables it reads', () => {
    assert.deepEqual(envVariables(settings), ['PORT', 'DEBUG', 'NAME', 'LIMIT_<NAME>']);
  });
});
