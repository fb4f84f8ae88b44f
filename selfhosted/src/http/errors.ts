import {
  notUtf8Detail,
  type Problem,
  type ProblemCode,
  ProblemError,
  problem,
  problemContentType,
  problemStatus,
  StorageError,
  storageErrorProblem,
} from '@postwave/shared';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';

/** The one place where anything thrown by a route becomes an HTTP answer. */
export function toProblem(error: unknown): { problem: Problem; headers: Record<string, string> } {
  if (error instanceof ProblemError) return { problem: error.problem, headers: error.headers };
  if (error instanceof StorageError) return storageErrorProblem(error);
  const httpError = bodyParserProblem(error);
  if (httpError) return { problem: httpError, headers: {} };
  return {
    problem: problem('internal', 'Something went wrong on our side; it has been logged'),
    headers: {},
  };
}

export function sendProblem(res: Response, body: Problem, headers: Record<string, string> = {}): void {
  res.status(body.status).set(headers).type(problemContentType).send(JSON.stringify(body));
}

export const problemHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const { problem: body, headers } = toProblem(error);
  // A store that is down answers 503, but its cause is the operator's to see, as a bug's is.
  if (body.code === 'internal' || (error instanceof StorageError && error.code === 'unavailable'))
    req.log?.error({ err: error }, 'request failed');
  else req.log?.debug({ code: body.code }, 'request rejected');
  if (res.headersSent) {
    // A streamed response (a media download) failed midway: the status is gone, so cut the connection.
    res.destroy();
    return;
  }
  sendProblem(res, body, headers);
};

export const notFoundHandler: RequestHandler = (req, res) => {
  sendProblem(res, problem('not_found', `No route for ${req.method} ${req.path}`));
};

// The first code listed for a status is its generic one (409 → invalid_status).
const statusCodes = new Map<number, ProblemCode>();
for (const [code, status] of Object.entries(problemStatus)) {
  if (!statusCodes.has(status)) statusCodes.set(status, code as ProblemCode);
}

/** The error a JSON body's check throws inside body-parser when its bytes are not UTF-8 (400). */
const notUtf8Type = 'entity.not.utf8';
export function notUtf8BodyError(): Error {
  // A plain error: body-parser sets `status` on what the check throws, which a ProblemError cannot take.
  return Object.assign(new Error(notUtf8Detail), { status: 400, type: notUtf8Type });
}

/** body-parser errors carry an HTTP status; their messages may quote the body, so we never echo them. */
function bodyParserProblem(error: unknown): Problem | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { status, type } = error as { status?: unknown; type?: unknown };
  if (type === 'entity.parse.failed') return problem('invalid_request', 'The request body is not valid JSON');
  if (type === notUtf8Type) return problem('invalid_request', notUtf8Detail);
  if (type === 'entity.too.large') return problem('payload_too_large', 'The request body is too large');
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return problem('unsupported_media_type', 'Send the body as UTF-8 JSON');
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return problem(statusCodes.get(status) ?? 'invalid_request', 'The request could not be read');
  }
  return undefined;
}
