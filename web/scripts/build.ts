import { buildIfStale } from './next-build.ts';

await buildIfStale();
