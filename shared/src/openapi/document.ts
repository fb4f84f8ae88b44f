import type { z } from 'zod';
import { type ProblemCode, problemContentType, problemStatus } from '../problems.ts';
import { Problem } from '../schemas/problem.ts';
import { type JsonSchema, SchemaComponents } from './json-schema.ts';

/**
 * How both servers answer a JSON body their schema refuses (contract B), for the documents'
 * descriptions: one sentence, so the two cannot drift.
 */
export const requestBodyRules =
  '**Request bodies**: unknown JSON fields are ignored. A body of the wrong shape (malformed JSON, a field missing or of the wrong type) is 400 `invalid_request`; well-typed values that break a rule (too long, out of range, not one of the allowed values, a malformed e-mail, URL or time zone, too many thread parts) are 422 `validation_failed`, each issue naming its field in `errors[].path`, except on validation (`POST /api/v1/validation`), which answers them 200 `valid: false` with the issues in its top-level `errors`. A JSON body under another Content-Type than `application/json` (or a `+json` type) is 415 `unsupported_media_type`. Per-account platform options are the exception to "ignored": an option a platform does not have is that account’s `invalid_option` error (422 when posting, `valid: false` from validation), because a misspelt option would otherwise be dropped without a word.';

/**
 * The size limit on JSON bodies, for the documents' descriptions: every operation that takes one
 * also lists the 413 (`OpenApiDocument`'s `maxJsonBodyBytes`).
 */
export function jsonBodyLimitRule(maxBytes: number): string {
  return `**Body size**: a JSON request body over ${byteSize(maxBytes)} is 413 \`payload_too_large\`, refused before it is parsed (uploads and imports have their own limits, stated on their operations).`;
}

/**
 * How every route answers a method it does not serve (contract B), for the documents' descriptions.
 */
export const methodNotAllowedRule =
  '**Methods**: a method a path does not serve is 405 `method_not_allowed` (a problem body) with an `Allow` header listing the methods it does serve.';

/** `1048576` → `1 MiB`. */
export function byteSize(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';

/** A body or parameter schema: a zod schema (converted, components collected) or plain JSON Schema. */
export type SchemaSource = z.ZodType | JsonSchema;

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  description?: string;
  required?: boolean;
  schema: SchemaSource;
  example?: unknown;
}

export interface ResponseSpec {
  description: string;
  /** Body schemas by media type. */
  content?: Record<string, SchemaSource>;
  headers?: Record<string, { description: string; schema?: JsonSchema }>;
}

export interface OperationSpec {
  operationId: string;
  summary: string;
  /** Markdown: the operation's behaviour and the decisions a client needs (status codes, limits). */
  description?: string;
  tags?: string[];
  /** Omit for the document's default security; `[]` for a public operation. */
  security?: Record<string, string[]>[];
  parameters?: ParameterSpec[];
  requestBody?: { description?: string; required?: boolean; content: Record<string, SchemaSource> };
  /**
   * `result`: well-typed values that break the body schema's rules are reported in the 200 answer
   * (validation: `valid: false`), so the operation has no 422 for them.
   */
  bodyRuleBreaks?: 'result';
  responses: Record<string, ResponseSpec>;
}

export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
}

export interface DocumentOptions {
  info: DocumentInfo;
  servers?: { url: string; description?: string }[];
  securitySchemes?: Record<string, JsonSchema>;
  /** Applied to every operation that does not set its own. */
  security?: Record<string, string[]>[];
  tags?: { name: string; description?: string }[];
  /**
   * The server's limit on JSON request bodies: every operation that takes one and lists no 413 of
   * its own gets a 413 `payload_too_large` naming it.
   */
  maxJsonBodyBytes?: number;
}

/**
 * Builds an OpenAPI 3.1 document from zod schemas. Each deployment adds its own operations;
 * the shapes they share (post request, media object, problem...) become the same components.
 */
export class OpenApiDocument {
  readonly components = new SchemaComponents();
  readonly #options: DocumentOptions;
  readonly #paths = new Map<string, Partial<Record<HttpMethod, JsonSchema>>>();

  constructor(options: DocumentOptions) {
    this.#options = options;
  }

  /** Adds one operation; `path` uses OpenAPI templates (`/media/{key}`). */
  operation(method: HttpMethod, path: string, spec: OperationSpec): this {
    const item = this.#paths.get(path) ?? {};
    if (item[method]) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} is described twice`);
    item[method] = {
      operationId: spec.operationId,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      ...(spec.tags ? { tags: spec.tags } : {}),
      ...(spec.security ? { security: spec.security } : {}),
      ...(spec.parameters?.length ? { parameters: spec.parameters.map((p) => this.#parameter(p)) } : {}),
      ...(spec.requestBody
        ? {
            requestBody: {
              ...(spec.requestBody.description ? { description: spec.requestBody.description } : {}),
              required: spec.requestBody.required ?? true,
              content: this.#content(spec.requestBody.content),
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(
          withProtocolHeaders(spec, withBodyResponses(spec, this.#options.maxJsonBodyBytes)),
        ).map(([status, response]) => [status, this.#response(response)]),
      ),
    };
    this.#paths.set(path, item);
    return this;
  }

  /** Registers a schema as a named component (e.g. per-platform options) and returns its `$ref`. */
  component(name: string, schema: z.ZodType): JsonSchema {
    return this.components.schema(schema, name);
  }

  toJSON(): JsonSchema {
    const { info, servers, securitySchemes, security, tags } = this.#options;
    return {
      openapi: '3.1.0',
      info,
      jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
      ...(servers ? { servers } : {}),
      ...(security ? { security } : {}),
      ...(tags ? { tags } : {}),
      paths: Object.fromEntries(this.#paths),
      components: {
        schemas: this.components.toJSON(),
        ...(securitySchemes ? { securitySchemes } : {}),
      },
    };
  }

  #schema(source: SchemaSource): JsonSchema {
    return isZod(source) ? this.components.schema(source) : source;
  }

  #content(content: Record<string, SchemaSource>): JsonSchema {
    return Object.fromEntries(
      Object.entries(content).map(([mediaType, schema]) => [mediaType, { schema: this.#schema(schema) }]),
    );
  }

  #parameter(parameter: ParameterSpec): JsonSchema {
    return {
      name: parameter.name,
      in: parameter.in,
      ...(parameter.description ? { description: parameter.description } : {}),
      required: parameter.in === 'path' ? true : (parameter.required ?? false),
      schema: this.#schema(parameter.schema),
      ...(parameter.example === undefined ? {} : { example: parameter.example }),
    };
  }

  #response(response: ResponseSpec): JsonSchema {
    return {
      description: response.description,
      ...(response.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([name, header]) => [
                name,
                { description: header.description, schema: header.schema ?? { type: 'string' } },
              ]),
            ),
          }
        : {}),
      ...(response.content ? { content: this.#content(response.content) } : {}),
    };
  }
}

function isZod(source: SchemaSource): source is z.ZodType {
  return typeof (source as { safeParse?: unknown }).safeParse === 'function';
}

const bodyRuleLine =
  '`validation_failed`: a well-typed value breaks a rule (too long, out of range, not an allowed value); each issue names its field in `errors[].path`.';
const bodyShapeLine =
  '`invalid_request`: the body is not JSON, or a field is missing or of the wrong type (`errors[].path` names it).';
const tooLargeLine = (maxBytes: number) =>
  `\`payload_too_large\`: the JSON body is over ${byteSize(maxBytes)}; it was not read.`;

const notJsonLine =
  '`unsupported_media_type`: the body is sent under another Content-Type than `application/json`.';

/** Whether an operation's body is JSON only: both servers then refuse any other type with 415. */
export function takesJsonOnly(spec: Pick<OperationSpec, 'requestBody'>): boolean {
  const types = Object.keys(spec.requestBody?.content ?? {});
  return types.length > 0 && types.every((type) => type.endsWith('json'));
}

/**
 * Every JSON body is read with a size limit and parsed by a schema, so each operation that takes
 * one documents those answers once: 400 for a body of the wrong shape (unless the operation lists
 * its own 400), 413 over the size limit (unless it lists its own 413), 422 for a value that breaks
 * a rule (`schemaProblem`; not where rule breaks are the answer's result, as validation's), and
 * 415 for a JSON-only body sent under another type (`notJsonProblem`).
 */
function withBodyResponses(
  spec: OperationSpec,
  maxJsonBodyBytes: number | undefined,
): Record<string, ResponseSpec> {
  const takesJson = Object.keys(spec.requestBody?.content ?? {}).some((type) => type.endsWith('json'));
  if (!takesJson) return spec.responses;
  const responses = { ...spec.responses };
  responses['400'] ??= problemBody(bodyShapeLine);
  if (maxJsonBodyBytes !== undefined) responses['413'] ??= problemBody(tooLargeLine(maxJsonBodyBytes));
  if (spec.bodyRuleBreaks !== 'result') addLine(responses, '422', bodyRuleLine, '`validation_failed`');
  if (takesJsonOnly(spec)) addLine(responses, '415', notJsonLine, 'application/json');
  return responses;
}

const problemBody = (description: string): ResponseSpec => ({
  description,
  content: { [problemContentType]: Problem },
});

/** Adds `line` to the problem response for `status` unless its description already says `mark`. */
function addLine(responses: Record<string, ResponseSpec>, status: string, line: string, mark: string): void {
  const existing = responses[status];
  if (existing?.description.includes(mark)) return;
  responses[status] = existing
    ? { ...existing, description: `${existing.description}\n\n${line}` }
    : problemBody(line);
}

const retryAfter = {
  'Retry-After': {
    description: 'Seconds to wait before sending the request again.',
    schema: { type: 'integer', minimum: 0 },
  },
};
const idempotentReplayed = {
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed byte for byte; absent on a first answer.',
    schema: { type: 'string', enum: ['true'] },
  },
};
/**
 * A route that reads or writes media storage, in both servers (`storageErrorProblem`): a store that
 * is down or refusing the server is temporary, so 503, never a 500.
 */
export const storageUnavailableWhen =
  'media storage is down or refusing this server; nothing was stored or sent (`Retry-After` says when to try again; the cause is in the server log)';
export const storageUnavailable = { unavailable: storageUnavailableWhen } as const;

/** The problem codes whose answers always carry `Retry-After` (both servers set it with them). */
const retryAfterCodes = ['`rate_limited`', '`unavailable`', '`idempotency_in_progress`'];

/**
 * The headers the shared protocols add to responses, declared where they are sent: `Retry-After`
 * on every 409 `idempotency_in_progress`, 429 `rate_limited` and 503 `unavailable`, and
 * `Idempotent-Replayed` on the answers an `Idempotency-Key` operation stores and replays (2xx, 502).
 */
function withProtocolHeaders(
  spec: OperationSpec,
  responses: Record<string, ResponseSpec>,
): Record<string, ResponseSpec> {
  const idempotent = spec.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key') ?? false;
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const headers = {
        ...response.headers,
        ...(retryAfterCodes.some((code) => response.description.includes(code)) ? retryAfter : {}),
        ...(idempotent && (/^2\d\d$/.test(status) || status === '502') ? idempotentReplayed : {}),
      };
      return [status, Object.keys(headers).length ? { ...response, headers } : response];
    }),
  );
}

/**
 * Problem responses for the given codes, grouped by status (codes sharing a status are listed in
 * one description), each an RFC 9457 body with the shared Problem schema.
 */
export function problemResponses(codes: Partial<Record<ProblemCode, string>>): Record<string, ResponseSpec> {
  const byStatus = new Map<number, string[]>();
  for (const [code, when] of Object.entries(codes)) {
    const status = problemStatus[code as ProblemCode];
    byStatus.set(status, [...(byStatus.get(status) ?? []), `\`${code}\`: ${when}`]);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, lines]) => [
        String(status),
        { description: lines.join('\n\n'), content: { [problemContentType]: Problem } },
      ]),
  );
}
