import { handlers } from '#server/auth/next-auth.ts';

export const runtime = 'nodejs';
export const { GET, POST } = handlers;
