// Project members and invitations (spec section 4, "Projects"; section 5 for who may do what).
import { api } from '@codehealth/service';
import { z } from 'zod';
import { ProjectParams, projectParamsWith, uuidParam } from '../params.js';
import { defineRoute } from '../route.js';

const TAG = 'Members';
const MemberParams = projectParamsWith('userId');

export const memberRoutes = [
  defineRoute({
    method: 'GET',
    path: '/projects/{id}/members',
    operationId: 'listProjectMembers',
    summary: 'Every member of the project with their role, oldest membership first (not paginated)',
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    status: 200,
    response: z.array(api.ProjectMemberSchema),
    handler: ({ services, actor, params }) => services.members.list(actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/projects/{id}/invitations',
    operationId: 'inviteProjectMember',
    summary: 'Invite an email address to the project; the invitation is `pending` and valid for 7 days',
    description: [
      'Any member may invite with role `member`; inviting with role `owner` needs the owner role (403 otherwise),',
      'since only owners may grant ownership. `expires_at` is 7 days after creation (the server option `invitationTtlDays`).',
      'Inviting an address that already belongs to a member is 409. Inviting an address that already has a pending',
      'invitation to this project creates a new invitation and supersedes the earlier one (its status becomes `revoked`,',
      'or `expired` when it had already expired), so re-inviting changes the role or renews the expiry.',
      'Addresses are compared case-insensitively. No email is sent: pass the invitation id to the invited user.',
    ].join(' '),
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    body: api.CreateInvitationBody,
    status: 201,
    response: api.InvitationSchema,
    errors: [409],
    handler: ({ services, actor, params, body }) => services.invitations.create(actor, params.id, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/projects/{id}/members/{userId}',
    operationId: 'updateProjectMemberRole',
    summary: 'Change a member\'s role (owners only); answers `{"status": "updated"}`',
    description:
      'Setting the role a member already has succeeds without change. Demoting the last owner is 409; ' +
      'an owner may demote themselves while another owner remains. A user who is not a member is 404.',
    tag: TAG,
    access: 'owner',
    params: MemberParams,
    body: api.UpdateMemberRoleBody,
    status: 200,
    response: api.UpdatedMemberSchema,
    errors: [409],
    handler: ({ services, actor, params, body }) => services.members.updateRole(actor, params.id, params.userId, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/projects/{id}/members/{userId}',
    operationId: 'removeProjectMember',
    summary: 'Remove a member: owners may remove anyone, a member only themselves (leaving the project)',
    description:
      'A plain member removing someone else is 403. Removing the last owner — also the last owner leaving — is 409. ' +
      'A user who is not a member is 404. Invitations the removed member sent stay valid.',
    tag: TAG,
    access: 'member',
    params: MemberParams,
    status: 204,
    errors: [409],
    handler: ({ services, actor, params }) => services.members.remove(actor, params.id, params.userId),
  }),
  defineRoute({
    method: 'POST',
    path: '/invitations/{invitationId}/accept',
    operationId: 'acceptInvitation',
    summary: "Accept an invitation with the invited user's key; the caller becomes a member with the invited role",
    description: [
      "The caller's email must equal the invited address (case-insensitively), otherwise 403 `forbidden`.",
      'Answers `{"status": "accepted", "project_id", "role"}` where `role` is the caller\'s role afterwards',
      "(accepting never lowers a role the caller already holds). The invitation's status becomes `accepted`.",
      'Refused with 409: `invitation already accepted`, `invitation expired` (after `expires_at`; its status becomes',
      '`expired`), or superseded by a newer invitation (`revoked`). Unknown id: 404. No request body.',
    ].join(' '),
    tag: TAG,
    params: z.object({ invitationId: uuidParam('invitationId') }),
    status: 200,
    response: api.AcceptedInvitationSchema,
    errors: [403, 404, 409],
    handler: ({ services, actor, params }) => services.invitations.accept(actor, params.invitationId),
  }),
];
