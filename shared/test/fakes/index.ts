export * from './fake-server.ts';
