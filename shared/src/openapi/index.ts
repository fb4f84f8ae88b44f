export * from '../health/openapi.ts';
export * from './docs-page.ts';
export * from './document.ts';
export * from './json-schema.ts';
export * from './routes.ts';
