import { livenessBody } from '@postwave/shared';
import { json } from '#server/http/respond.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Liveness: 200 while the process serves; it checks nothing else (that is /ready). */
export function GET(): Response {
  return json(livenessBody);
}
