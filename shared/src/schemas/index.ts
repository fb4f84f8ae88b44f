export * from './account.ts';
export * from './media.ts';
export * from './post.ts';
export * from './presign.ts';
export * from './problem.ts';
export * from './results.ts';
