export * from '../health/openapi.ts';
export * from './document.ts';
export * from './json-schema.ts';
