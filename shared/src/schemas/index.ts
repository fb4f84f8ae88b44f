export * from './account.ts';
export * from './import-report.ts';
export * from './media.ts';
export * from './post.ts';
export * from './presign.ts';
export * from './problem.ts';
export * from './queue.ts';
export * from './results.ts';
