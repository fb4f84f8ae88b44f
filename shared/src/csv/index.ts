export * from './writer.ts';
