import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PlatformError, ProblemError, platformProblem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { tool } from '#server/mcp/tools/results.ts';

/*
 * Contract F in MCP: a tool that fails on a platform's refusal hands the model the REST problem with
 * its `hint`, and says the hint in the readable text, so the assistant can tell the person what to do.
 */

const ctx = {} as AppContext; // neither failure below is logged
const failing = (error: unknown) =>
  tool(ctx, async () => {
    throw error;
  })({}, { requestId: 1 });
const textOf = (result: { content: unknown }) => (result.content as { text: string }[])[0]!.text;

test('a platform problem keeps its hint, in the structured error and the text', async () => {
  const result = await failing(
    new ProblemError(
      platformProblem('credentials_invalid', 'X rejected the credentials', {
        hint: 'Copy the token again, then connect again.',
      }),
    ),
  );
  assert.equal(result.isError, true);
  const error = (result.structuredContent as { error: { code: string; hint: string } }).error;
  assert.equal(error.code, 'credentials_invalid');
  assert.equal(error.hint, 'Copy the token again, then connect again.');
  assert.match(textOf(result), /What to do: Copy the token again, then connect again\./);
});

test('a bare platform error gets the hint of its code', async () => {
  const thrown = new PlatformError('needs_reconnect', 'The sign-in expired');
  const result = await failing(thrown);
  const error = (result.structuredContent as { error: { code: string; hint: string } }).error;
  assert.equal(error.code, 'needs_reconnect');
  assert.equal(error.hint, thrown.hint);
  assert.match(textOf(result), /What to do: .*reconnect the account/);
});
