export * from './exposition.ts';
export * from './registry.ts';
