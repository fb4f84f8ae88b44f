export * from './find.ts';
export * from './shorteners/index.ts';
export * from './track.ts';
export * from './utm.ts';
