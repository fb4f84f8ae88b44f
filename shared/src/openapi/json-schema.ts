import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const componentPrefix = '#/components/schemas/';

/**
 * Converts zod schemas to OpenAPI 3.1 schemas, collecting every schema that carries
 * `.meta({ id })` into shared components so each shape is described once and referenced.
 */
export class SchemaComponents {
  readonly #components = new Map<string, JsonSchema>();

  /**
   * The schema for `schema`: a `$ref` when it has an id (or else `name` is given), inline otherwise.
   * Requests and responses alike are described as accepted input (`io: "input"`), which is also
   * what tolerant clients should expect back: unknown fields may be added later.
   */
  schema(schema: z.ZodType, name?: string): JsonSchema {
    const converted = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: 'input',
      unrepresentable: 'any',
      cycles: 'ref',
      reused: 'inline',
    }) as JsonSchema;
    const {
      $defs,
      $schema: _dialect,
      ...root
    } = converted as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [id, definition] of Object.entries($defs ?? {})) this.#add(id, rewriteRefs(definition));
    const body = rewriteRefs(root);
    // A schema with its own `.meta({ id })` is already a component: its id wins over `name`.
    if (typeof body.$ref === 'string' && Object.keys(body).length === 1) return body;
    if (name) {
      this.#add(name, body);
      return { $ref: componentPrefix + name };
    }
    return body;
  }

  /** Every component collected so far, by name. */
  toJSON(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.#components.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  #add(id: string, definition: JsonSchema): void {
    const existing = this.#components.get(id);
    if (existing && JSON.stringify(existing) !== JSON.stringify(definition)) {
      throw new Error(`Two different schemas use the OpenAPI component id "${id}"`);
    }
    this.#components.set(id, definition);
  }
}

function rewriteRefs<T>(value: T): T {
  if (Array.isArray(value)) return value.map(rewriteRefs) as T;
  if (value && typeof value === 'object') {
    const out: JsonSchema = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] =
        key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/')
          ? componentPrefix + child.slice('#/$defs/'.length)
          : rewriteRefs(child);
    }
    return out as T;
  }
  return value;
}
