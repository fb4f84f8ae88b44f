export * from './events.ts';
export * from './schedule.ts';
export * from './send.ts';
export * from './signing.ts';
