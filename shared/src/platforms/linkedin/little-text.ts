/**
 * LinkedIn's Posts API reads `commentary` as "little text", where `{hashtag|\#|tag}` and
 * `@[Name](urn:li:…)` are templates and every other use of a reserved character must be
 * escaped with a backslash. An unescaped one does not fail the request: LinkedIn silently
 * cuts the post short at that character. A message is plain text, so every reserved character
 * is escaped (a `#tag` is posted as written).
 */
const reserved = /[\\|{}@[\]()<>#*_~]/g;

export function escapeLittleText(text: string): string {
  return text.replace(reserved, (c) => `\\${c}`);
}
