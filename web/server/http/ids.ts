const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are UUIDs; anything else is simply not found (never a database type error). */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
