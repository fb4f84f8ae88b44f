import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { json, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import {
  AcceptedInvitation,
  AcceptInvitationRequest,
  ChangeRoleRequest,
  CreatedInvitation,
  CreateInvitationRequest,
  CreateWorkspaceRequest,
  InvitationList,
  Member,
  MemberList,
  UpdateWorkspaceRequest,
  Workspace,
  WorkspaceList,
} from './schema.ts';

const workspaceId = { name: 'id', in: 'path' as const, description: 'The workspace id.', schema: z.string() };
const userIdParam = {
  name: 'userId',
  in: 'path' as const,
  description: 'The member’s user id.',
  schema: z.string(),
};
const invitationIdParam = {
  name: 'invitationId',
  in: 'path' as const,
  description: 'The invitation id.',
  schema: z.string(),
};
const notMember = { not_found: 'no such workspace, or the caller is not a member of it (the same answer)' };
const forbidden = (what: string) => ({
  forbidden: `${what}; \`requiredRole\` names the least role that may`,
});
const tags = ['Workspaces'];

/** Contract section G: workspaces, their members and invitations (docs/workspaces.md). */
export const workspacesRoutes = defineApiRoutes({
  listWorkspaces: {
    method: 'get',
    path: '/api/v1/workspaces',
    auth: 'caller',
    permission: 'self',
    operationId: 'listWorkspaces',
    tags,
    summary: 'The caller’s workspaces, with their role in each',
    responses: {
      200: { description: 'Workspaces.', content: { [json]: WorkspaceList } },
      ...problemResponses(unauthorized),
    },
  },
  createWorkspace: {
    method: 'post',
    path: '/api/v1/workspaces',
    auth: 'caller',
    permission: 'self',
    operationId: 'createWorkspace',
    tags,
    summary: 'Create a workspace; the caller becomes its owner',
    description:
      'It does not become the current workspace: switch to it (`POST /api/v1/workspaces/{id}/switch`).',
    requestBody: { content: { [json]: CreateWorkspaceRequest } },
    responses: {
      201: { description: 'Created.', content: { [json]: Workspace } },
      ...problemResponses({ ...unauthorized, invalid_request: 'name missing, empty or over 100 characters' }),
    },
  },
  getWorkspace: {
    method: 'get',
    path: '/api/v1/workspaces/{id}',
    auth: 'caller',
    permission: 'read',
    workspaceParam: 'id',
    operationId: 'getWorkspace',
    tags,
    summary: 'A workspace and its settings',
    parameters: [workspaceId],
    responses: {
      200: { description: 'The workspace.', content: { [json]: Workspace } },
      ...problemResponses({ ...unauthorized, ...notMember }),
    },
  },
  updateWorkspace: {
    method: 'patch',
    path: '/api/v1/workspaces/{id}',
    auth: 'caller',
    permission: 'workspace.manage',
    workspaceParam: 'id',
    operationId: 'updateWorkspace',
    tags,
    summary: 'Rename a workspace or change its settings (owners and admins)',
    description: 'Only the settings given change; the others keep their values.',
    parameters: [workspaceId],
    requestBody: { content: { [json]: UpdateWorkspaceRequest } },
    responses: {
      200: { description: 'The workspace as saved.', content: { [json]: Workspace } },
      ...problemResponses({
        ...unauthorized,
        ...notMember,
        ...forbidden('editors and below may not'),
        invalid_request: 'unknown setting, bad approvals mode or time zone',
      }),
    },
  },
  deleteWorkspace: {
    method: 'delete',
    path: '/api/v1/workspaces/{id}',
    auth: 'caller',
    permission: 'workspace.delete',
    workspaceParam: 'id',
    operationId: 'deleteWorkspace',
    tags,
    summary: 'Delete a workspace and everything it owns (owners)',
    parameters: [workspaceId],
    responses: {
      204: { description: 'Deleted.' },
      ...problemResponses({ ...unauthorized, ...notMember, ...forbidden('only owners may') }),
    },
  },
  switchWorkspace: {
    method: 'post',
    path: '/api/v1/workspaces/{id}/switch',
    auth: 'session',
    permission: 'read',
    workspaceParam: 'id',
    operationId: 'switchWorkspace',
    tags,
    summary: 'Make a workspace the browser session’s current one',
    description:
      'For this browser session only: the answer re-issues its session cookie acting in the workspace, and the user’s other sessions stay where they are. A new sign-in starts in the workspace last switched to. Tokens are not affected: each acts in the workspace it was bound to at creation.',
    parameters: [workspaceId],
    responses: {
      200: { description: 'The new current workspace.', content: { [json]: Workspace } },
      ...problemResponses({ ...unauthorized, ...notMember }),
    },
  },
  listMembers: {
    method: 'get',
    path: '/api/v1/workspaces/{id}/members',
    auth: 'caller',
    permission: 'read',
    workspaceParam: 'id',
    operationId: 'listMembers',
    tags,
    summary: 'The workspace’s members and their roles',
    description:
      'Every member may see who else belongs (names on posts, approvals); changing them is for owners and admins.',
    parameters: [workspaceId],
    responses: {
      200: { description: 'Members.', content: { [json]: MemberList } },
      ...problemResponses({ ...unauthorized, ...notMember }),
    },
  },
  changeMemberRole: {
    method: 'patch',
    path: '/api/v1/workspaces/{id}/members/{userId}',
    auth: 'caller',
    permission: 'members.manage',
    workspaceParam: 'id',
    operationId: 'changeMemberRole',
    tags,
    summary: 'Change a member’s role (owners; admins for non-owners)',
    parameters: [workspaceId, userIdParam],
    requestBody: { content: { [json]: ChangeRoleRequest } },
    responses: {
      200: { description: 'The member.', content: { [json]: Member } },
      ...problemResponses({
        ...unauthorized,
        not_found: 'no such workspace or member',
        ...forbidden('below admin, or an admin touching an owner or making one'),
        last_owner: 'the last owner cannot be demoted',
        invalid_request: 'not a role',
      }),
    },
  },
  removeMember: {
    method: 'delete',
    path: '/api/v1/workspaces/{id}/members/{userId}',
    auth: 'caller',
    permission: 'read',
    workspaceParam: 'id',
    operationId: 'removeMember',
    tags,
    summary:
      'Remove a member, or leave (your own id); their tokens and MCP grants for the workspace end at once',
    description:
      'Any member may leave the workspace by removing themselves. Removing someone else needs an admin (an owner to remove an owner). The last owner cannot leave: 409 `last_owner`.',
    parameters: [workspaceId, userIdParam],
    responses: {
      204: { description: 'Removed.' },
      ...problemResponses({
        ...unauthorized,
        not_found: 'no such workspace or member',
        ...forbidden('removing someone else below admin, or an admin removing an owner'),
        last_owner: 'the last owner cannot leave',
      }),
    },
  },
  createInvitation: {
    method: 'post',
    path: '/api/v1/workspaces/{id}/invitations',
    auth: 'caller',
    permission: 'members.manage',
    workspaceParam: 'id',
    operationId: 'createInvitation',
    tags,
    summary: 'Invite someone by e-mail with a role; the url is shown once and e-mailed',
    description:
      'The link carries a random 256-bit token stored only hashed; it works once and expires after 7 days. Only owners invite owners.',
    parameters: [workspaceId],
    requestBody: { content: { [json]: CreateInvitationRequest } },
    responses: {
      201: { description: 'Created.', content: { [json]: CreatedInvitation } },
      ...problemResponses({
        ...unauthorized,
        ...notMember,
        ...forbidden('below admin, or an admin inviting an owner'),
        invalid_request: 'bad e-mail address or role',
        validation_failed:
          'the address is already a member’s (`already_member` on `email`): change their role instead',
      }),
    },
  },
  listInvitations: {
    method: 'get',
    path: '/api/v1/workspaces/{id}/invitations',
    auth: 'caller',
    permission: 'members.manage',
    workspaceParam: 'id',
    operationId: 'listInvitations',
    tags,
    summary: 'Open invitations, newest first (never their links)',
    parameters: [workspaceId],
    responses: {
      200: { description: 'Invitations.', content: { [json]: InvitationList } },
      ...problemResponses({ ...unauthorized, ...notMember, ...forbidden('below admin') }),
    },
  },
  revokeInvitation: {
    method: 'delete',
    path: '/api/v1/workspaces/{id}/invitations/{invitationId}',
    auth: 'caller',
    permission: 'members.manage',
    workspaceParam: 'id',
    operationId: 'revokeInvitation',
    tags,
    summary: 'Revoke an open invitation',
    parameters: [workspaceId, invitationIdParam],
    responses: {
      204: { description: 'Revoked.' },
      ...problemResponses({
        ...unauthorized,
        not_found: 'no such workspace or open invitation',
        ...forbidden('below admin, or an admin revoking an owner invitation'),
      }),
    },
  },
  acceptInvitation: {
    method: 'post',
    path: '/api/v1/invitations/accept',
    auth: 'caller',
    permission: 'self',
    operationId: 'acceptInvitation',
    tags,
    summary: 'Join a workspace with an invitation’s token',
    description:
      'The caller’s verified e-mail address must be the invited one; the workspace becomes their current one.',
    requestBody: { content: { [json]: AcceptInvitationRequest } },
    responses: {
      200: { description: 'Joined.', content: { [json]: AcceptedInvitation } },
      ...problemResponses({
        ...unauthorized,
        not_found: 'unknown, used, revoked or expired invitation',
        invitation_email_mismatch: 'the invitation is for another e-mail address',
        email_unverified: 'the caller’s e-mail address is not verified yet',
      }),
    },
  },
});
