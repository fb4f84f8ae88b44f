import {
  type Problem,
  type ProblemCode,
  ProblemError,
  problem,
  problemContentType,
  problemStatus,
  StorageError,
  storageErrorStatus,
} from '@postwave/shared';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import multer from 'multer';

/** The one place where anything thrown by a route becomes an HTTP answer. */
export function toProblem(error: unknown): { problem: Problem; headers: Record<string, string> } {
  if (error instanceof ProblemError) return { problem: error.problem, headers: error.headers };
  if (error instanceof StorageError) {
    const { code } = storageErrorStatus(error);
    // An unavailable storage's message may describe infrastructure: it goes to the logs only.
    const detail =
      error.code === 'unavailable' ? 'Media storage is unavailable; try again later' : error.message;
    return { problem: problem(code, detail), headers: {} };
  }
  if (error instanceof multer.MulterError) return { problem: multerProblem(error), headers: {} };
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
  if (body.code === 'internal') req.log?.error({ err: error }, 'request failed');
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

function multerProblem(error: multer.MulterError): Problem {
  switch (error.code) {
    case 'LIMIT_FILE_SIZE':
      return problem('payload_too_large', 'The file is larger than this server accepts (MAX_UPLOAD_BYTES)');
    case 'LIMIT_UNEXPECTED_FILE':
      return problem('invalid_request', `Send the file in the multipart field "file", not "${error.field}"`);
    case 'LIMIT_FILE_COUNT':
      return problem('invalid_request', 'Send exactly one file per upload');
    default:
      return problem('invalid_request', `The multipart body is not acceptable (${error.code})`);
  }
}

// The first code listed for a status is its generic one (409 → invalid_status).
const statusCodes = new Map<number, ProblemCode>();
for (const [code, status] of Object.entries(problemStatus)) {
  if (!statusCodes.has(status)) statusCodes.set(status, code as ProblemCode);
}

/** body-parser and busboy errors carry an HTTP status; their messages may quote the body, so we never echo them. */
function bodyParserProblem(error: unknown): Problem | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { status, type } = error as { status?: unknown; type?: unknown };
  if (type === 'entity.parse.failed') return problem('invalid_request', 'The request body is not valid JSON');
  if (type === 'entity.too.large') return problem('payload_too_large', 'The request body is too large');
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return problem('unsupported_media_type', 'Send the body as UTF-8 JSON');
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return problem(statusCodes.get(status) ?? 'invalid_request', 'The request could not be read');
  }
  if (error instanceof Error && /^Request (aborted|closed)$/.test(error.message)) {
    return problem('invalid_request', 'The client closed the connection before the body was complete');
  }
  if (
    error instanceof Error &&
    /Multipart|Unexpected end of form|Malformed part header/i.test(error.message)
  ) {
    return problem('invalid_request', 'The multipart body is malformed');
  }
  return undefined;
}
