import { type Problem, ProblemError, problem, problemContentType } from '@postwave/shared';

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
}

export function problemResponse(body: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { 'content-type': problemContentType, 'cache-control': 'no-store', ...headers },
  });
}

export function notFound(what = 'resource'): ProblemError {
  return new ProblemError(problem('not_found', `No such ${what}`));
}
