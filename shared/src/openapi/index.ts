export * from './document.ts';
export * from './json-schema.ts';
