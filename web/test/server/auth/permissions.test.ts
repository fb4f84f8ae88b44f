import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiRoutes } from '#server/api/registry.ts';
import { can, type Permission, permissions, requiredRole, workspaceRoles } from '#server/auth/permissions.ts';
import { toolPermissions } from '#server/mcp/tools/permissions.ts';

/** The contract's role table (section G), row by row: who may, and the least role named on a 403. */
const table: [Permission, Record<(typeof workspaceRoles)[number], boolean>][] = [
  ['read', { owner: true, admin: true, editor: true, contributor: true, viewer: true }],
  ['posts.draft', { owner: true, admin: true, editor: true, contributor: true, viewer: false }],
  // Contributors only submit for approval: publishing itself needs an editor.
  ['posts.publish', { owner: true, admin: true, editor: true, contributor: false, viewer: false }],
  ['posts.approve', { owner: true, admin: true, editor: true, contributor: false, viewer: false }],
  ['workspace.manage', { owner: true, admin: true, editor: false, contributor: false, viewer: false }],
  ['members.manage', { owner: true, admin: true, editor: false, contributor: false, viewer: false }],
  ['workspace.delete', { owner: true, admin: false, editor: false, contributor: false, viewer: false }],
];

describe('workspace permissions', () => {
  test('can() follows the role table', () => {
    for (const [permission, allowed] of table)
      for (const role of workspaceRoles)
        assert.equal(can(role, permission), allowed[role], `${role} ${permission}`);
  });

  test('requiredRole() names the least role allowed', () => {
    for (const [permission, allowed] of table) {
      const least = [...workspaceRoles].reverse().find((role) => allowed[role]);
      assert.equal(requiredRole(permission), least, permission);
    }
    for (const role of workspaceRoles) assert.ok(can(role, 'self'));
  });

  test('every authenticated route declares its permission', () => {
    for (const [name, spec] of Object.entries(apiRoutes)) {
      const entry = spec as { auth: string; permission?: Permission };
      if (entry.auth !== 'caller' && entry.auth !== 'session') continue;
      assert.ok(entry.permission && permissions.includes(entry.permission), `${name} declares a permission`);
    }
  });

  test('every MCP tool declares its permission', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../../../server/mcp/tools/', import.meta.url);
    const names = readdirSync(dir).flatMap((file) =>
      [...readFileSync(new URL(file, dir), 'utf8').matchAll(/registerTool\(\s*'([a-z_]+)'/g)].map(
        (m) => m[1]!,
      ),
    );
    assert.ok(names.length > 10);
    for (const name of names) assert.ok(toolPermissions[name], `${name} declares a permission`);
  });
});
