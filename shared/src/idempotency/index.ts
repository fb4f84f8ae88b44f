export * from './fingerprint.ts';
export * from './key.ts';
export * from './memory-store.ts';
export * from './openapi.ts';
export * from './protocol.ts';
export type * from './store.ts';
