import { describe } from 'node:test';
import { MemoryLimitStore } from '../../src/publish/limit-store.ts';
import { limitStoreSuite } from './limit-store-suite.ts';

describe('MemoryLimitStore', () => {
  limitStoreSuite({
    async open() {
      const store = new MemoryLimitStore();
      // One process: its "instances" are the one store.
      return { stores: [store, store], close: async () => {} };
    },
  });
});
