import { z } from 'zod';
import { workspaceRoles } from '#server/db/schema.ts';
import { ShortenerView, UpdateLinkSettingsRequest, UtmSettings } from '#server/links/schema.ts';
import { canonicalTimeZone, isTimeZone } from '../../components/lib/time.ts';

/** Zod schemas of contract section G (workspaces, members, invitations): type, check and OpenAPI entry. */

export const WorkspaceRoleSchema = z.enum(workspaceRoles).meta({
  id: 'WorkspaceRole',
  description: 'A member’s role; what each may do is the role table in docs/workspaces.md.',
});

export const approvalModes = ['off', 'contributors', 'everyone'] as const;

/** A workspace's settings; what is stored is parsed with these defaults. */
export const WorkspaceSettings = z
  .object({
    approvals: z.enum(approvalModes).default('contributors').meta({
      description:
        'Whose publish, schedule and queue requests wait for approval: `contributors` (the default) and `off` (only contributors, whose role always submits: the two differ in name only), `everyone` (every role).',
    }),
    timezone: z.string().min(1).max(100).default('UTC').meta({
      description:
        'IANA time zone of the workspace, as its canonical name (`utc` is stored as `UTC`; offsets such as `+01:00` are refused).',
    }),
    assistantsRequireApproval: z.boolean().default(false).meta({
      description:
        'MCP assistants’ posts wait for approval (formerly the per-user “assistants must confirm” setting, migrated into each user’s personal workspace).',
    }),
  })
  .meta({ id: 'WorkspaceSettings' });
export type WorkspaceSettings = z.infer<typeof WorkspaceSettings>;

/**
 * The settings as answered: the stored ones, and for owners and admins (who may change them) the
 * workspace's tracked links, as `GET /api/v1/workspaces/{id}/links` answers them.
 */
export const WorkspaceSettingsView = WorkspaceSettings.extend({
  utm: UtmSettings.nullable().optional().meta({
    description: 'Owners and admins, on this workspace’s own endpoints: UTM parameters (null: none).',
  }),
  shortener: ShortenerView.nullable().optional().meta({
    description: 'Owners and admins, on this workspace’s own endpoints: the link shortener (null: none).',
  }),
}).meta({ id: 'WorkspaceSettingsView' });

export const Workspace = z
  .object({
    id: z.string(),
    name: z.string(),
    role: WorkspaceRoleSchema.meta({ description: 'The caller’s role in it.' }),
    settings: WorkspaceSettingsView,
    createdAt: z.string(),
  })
  .meta({ id: 'Workspace' });
export type WorkspaceView = z.infer<typeof Workspace>;

export const WorkspaceList = z.object({
  workspaces: z.array(Workspace.pick({ id: true, name: true, role: true, createdAt: true })),
  currentWorkspaceId: z.string().optional().meta({ description: 'The workspace this request acts in.' }),
});

export const CreateWorkspaceRequest = z.object({ name: z.string().trim().min(1).max(100) });

export const UpdateWorkspaceRequest = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  settings: z
    .object({
      approvals: z.enum(approvalModes).optional(),
      timezone: z
        .string()
        .min(1)
        .max(100)
        .refine((tz) => isTimeZone(tz), 'Not an IANA time zone')
        // Stored as the zone's canonical name (`utc` → `UTC`).
        .transform((tz) => canonicalTimeZone(tz)!)
        .optional(),
      assistantsRequireApproval: z.boolean().optional(),
      // The contract has links "per workspace": they can be set here too, exactly as with
      // `PUT /api/v1/workspaces/{id}/links` (same checks, the shortener's host included).
      utm: UpdateLinkSettingsRequest.shape.utm,
      shortener: UpdateLinkSettingsRequest.shape.shortener,
    })
    .optional(),
});

export const Member = z
  .object({ userId: z.string(), email: z.string(), name: z.string().nullable(), role: WorkspaceRoleSchema })
  .meta({ id: 'WorkspaceMember' });
export const MemberList = z.object({ members: z.array(Member) });
export const ChangeRoleRequest = z.object({ role: WorkspaceRoleSchema });

export const Invitation = z
  .object({ id: z.string(), email: z.string(), role: WorkspaceRoleSchema, expiresAt: z.string() })
  .meta({ id: 'WorkspaceInvitation' });
export const CreatedInvitation = Invitation.extend({
  url: z
    .string()
    .meta({ description: 'The invitation link, shown only here (and e-mailed to the address).' }),
}).meta({ id: 'CreatedWorkspaceInvitation' });
export const InvitationList = z.object({ invitations: z.array(Invitation) });
export const CreateInvitationRequest = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()).meta({ description: 'Who is invited.' }),
  role: WorkspaceRoleSchema,
});
export const AcceptInvitationRequest = z.object({ token: z.string().min(1).max(200) });
export const AcceptedInvitation = z.object({ workspace: Workspace });

/** A workspace a person may pick (navigation switcher, consent and CLI authorization pages). */
export interface WorkspaceChoice {
  id: string;
  name: string;
  role: string;
}
