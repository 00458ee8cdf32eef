import { randomBytes } from 'node:crypto';
import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  INVITATION_TTL_SECONDS,
  validateInvitationAccept,
  validateInvitationPasskey,
  type InvitationPasskeyAcceptRequest,
  type InvitationPasskeyOptionsRequest,
  validateStaffInvitation,
  validateStaffRoleChange,
  type InvitationAcceptRequest,
  type StaffInvitationRequest,
  type StaffRole,
  type StaffRoleChangeRequest,
  STAFF_ROLE_LABELS,
} from '@grove/contracts';
import { hashPassword, hashRefreshToken, newRefreshToken } from '../../platform/auth/auth-tokens';
import { AuthService, type AuthResult } from '../../platform/auth/auth.service';
import { isCommonPassword } from '../../platform/auth/common-passwords';
import { PasskeysService } from '../../platform/auth/passkeys/passkeys.service';
import { SessionsService } from '../../platform/auth/sessions.service';
import { LoginThrottle } from '../../platform/throttle/login-throttle';
import type { AuthUser } from '../../platform/common/auth-user';
import { GroveException } from '../../platform/common/grove.exception';
import { AuditLog } from '../../platform/audit/audit-log';
import { AppConfig } from '../../platform/config/app-config';
import { invitationScope, type BusinessScope } from '../../platform/database/business-scope';
import { MailService } from '../../platform/mail/mail.service';
import type { InvitationInfoDto, StaffInvitationRowDto, TeamDto } from './dto/team.dto';
import { staffInvitationEmail } from './team-emails';
import {
  InvitationInvalidException,
  LastOwnerException,
  StaffEmailTakenException,
  TeamEntryNotFoundException,
  TeamInputInvalidException,
} from './team.exceptions';
import { TeamRepository, type PendingInvitationRow } from './team.repository';

/** The invitation email could not be sent (nothing kept). → 503 */
export class InvitationNotSentException extends GroveException {
  override readonly status = HttpStatus.SERVICE_UNAVAILABLE;

  constructor() {
    super('The invitation could not be emailed. Please try again in a moment.');
  }
}

const invitationRow = (row: PendingInvitationRow): StaffInvitationRowDto => ({
  id: row.id,
  email: row.email,
  role: row.role,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

/**
 * Staff accounts (issue 34 item 1, docs/product.md#staff-accounts): the owner invites by email
 * (a 256-bit token, only its SHA-256 stored, single use, 7 days; the plain token only in the
 * email, sent at once through `MailService.deliver`), lists the team and pending invitations,
 * changes a role, revokes an invitation, removes a member of staff (their sessions end at once);
 * the invitee accepts with a name and a password (signup's rule), or with a name and a passkey
 * instead of a first password, and is signed in. A business always keeps at least one owner.
 */
@Injectable()
export class TeamService {
  private readonly logger = new Logger(TeamService.name);

  constructor(
    private readonly team: TeamRepository,
    private readonly sessions: SessionsService,
    private readonly auth: AuthService,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly audit: AuditLog,
    private readonly loginThrottle: LoginThrottle,
    private readonly passkeys: PasskeysService,
  ) {}

  /**
   * The Team card: the business's staff (owners first; the caller marked `you`; each with
   * `signInPausedSeconds`, how long the per-account login throttle keeps their sign-in paused,
   * 0 when it does not) and pending invitations.
   */
  async list(scope: BusinessScope, user: AuthUser): Promise<TeamDto> {
    const [members, invitations] = await Promise.all([
      this.team.members(scope),
      this.team.pendingInvitations(scope),
    ]);
    const paused = await Promise.all(
      members.map((member) => this.loginThrottle.pausedSeconds(member.email)),
    );
    return {
      members: members.map((member, index) => ({
        ...member,
        lastSignInAt: member.lastSignInAt?.toISOString() ?? null,
        signInPausedSeconds: paused[index] ?? 0,
        ...(member.id === user.userId ? { you: true as const } : {}),
      })),
      invitations: invitations.map(invitationRow),
    };
  }

  /**
   * Invites `email` as `role`: stores the invitation (a pending one to the same address is
   * revoked) and emails its link.
   * @throws TeamInputInvalidException 400 'Not a valid email address' / the role message
   * @throws StaffEmailTakenException 409 when a Grove account already uses the address
   * @throws InvitationNotSentException 503 when the email could not be sent (nothing kept)
   */
  async invite(
    scope: BusinessScope,
    user: AuthUser,
    body: StaffInvitationRequest,
  ): Promise<StaffInvitationRowDto> {
    const errors = validateStaffInvitation(body);
    if (Object.keys(errors).length > 0) throw new TeamInputInvalidException(errors);
    const email = body.email.trim();
    const from = await this.team.inviter(scope, user.userId);
    if (!from) throw new TeamEntryNotFoundException();
    const token = newRefreshToken();
    const row = await this.team.transaction(async (manager) => {
      if (await this.team.emailTaken(manager, email)) throw new StaffEmailTakenException();
      await this.audit.record(scope, manager, {
        kind: 'team.invited',
        after: { email, role: STAFF_ROLE_LABELS[body.role] },
      });
      return this.team.insertInvitation(scope, manager, {
        email,
        role: body.role,
        tokenHash: hashRefreshToken(token),
        invitedBy: user.userId,
        ttlSeconds: INVITATION_TTL_SECONDS,
      });
    });
    try {
      await this.mail.deliver(
        staffInvitationEmail({ email, role: body.role }, from, this.config.publicOrigin, token),
      );
    } catch (error) {
      this.logger.warn(`invitation ${row.id} not emailed: ${String(error)}`);
      await this.team.withdrawInvitation(scope, row.id);
      throw new InvitationNotSentException();
    }
    return invitationRow(row);
  }

  /** Revokes a pending invitation: its link stops working. @throws TeamEntryNotFoundException 404 */
  async revokeInvitation(scope: BusinessScope, id: string): Promise<void> {
    if (!(await this.team.revokeInvitation(scope, id))) throw new TeamEntryNotFoundException();
  }

  /**
   * Changes a member of staff's role; it applies to their next request on this instance (within
   * `ACTIVE_SESSION_TRUST_MS` on others).
   * @throws TeamInputInvalidException 400 the role message
   * @throws TeamEntryNotFoundException 404 when the business has no such member of staff
   * @throws LastOwnerException 409 when it would leave no owner
   */
  async changeRole(scope: BusinessScope, id: string, body: StaffRoleChangeRequest): Promise<void> {
    const errors = validateStaffRoleChange(body);
    if (Object.keys(errors).length > 0) throw new TeamInputInvalidException(errors);
    await this.team.transaction(async (manager) => {
      const staff = await this.team.lockStaff(scope, manager);
      const target = staff.get(id);
      if (!target) throw new TeamEntryNotFoundException();
      if (!keepsAnOwner(staff, id, body.role)) throw new LastOwnerException();
      await this.team.setRole(scope, manager, id, body.role);
      if (target.role !== body.role)
        await this.audit.record(scope, manager, {
          kind: 'team.role_changed',
          before: { staff: target.name, role: STAFF_ROLE_LABELS[target.role] },
          after: { role: STAFF_ROLE_LABELS[body.role] },
        });
    });
    this.sessions.forgetUser(id);
  }

  /**
   * Removes a member of staff: every session of theirs ends (their next request: 401) and the
   * account is deleted, in one transaction.
   * @throws TeamEntryNotFoundException 404 when the business has no such member of staff
   * @throws LastOwnerException 409 when they are its last owner
   */
  async remove(scope: BusinessScope, id: string): Promise<void> {
    await this.team.transaction(async (manager) => {
      const staff = await this.team.lockStaff(scope, manager);
      const target = staff.get(id);
      if (!target) throw new TeamEntryNotFoundException();
      if (!keepsAnOwner(staff, id, null)) throw new LastOwnerException();
      await this.sessions.revokeAll(id, manager);
      await this.audit.record(scope, manager, {
        kind: 'team.removed',
        before: { staff: target.name },
      });
      await this.team.deleteUser(scope, manager, id);
    });
  }

  /**
   * Lifts a member of staff's paused sign-in (the per-account login throttle, issue 34 item 3):
   * their failed attempts are forgotten and they may sign in at once. The "Signing in to Grove is
   * paused" email's reset link does the same for the account itself.
   * @throws TeamEntryNotFoundException 404 when the business has no such member of staff
   */
  async liftSignInPause(scope: BusinessScope, id: string): Promise<void> {
    const member = (await this.team.members(scope)).find((row) => row.id === id);
    if (!member) throw new TeamEntryNotFoundException();
    await this.loginThrottle.liftAccount(member.email);
  }

  /** What the invitation page shows. @throws InvitationInvalidException 400 when the link is not pending */
  async lookup(token: string): Promise<InvitationInfoDto> {
    const invitation = await this.team.invitationOfLink(hashRefreshToken(token));
    if (!invitation) throw new InvitationInvalidException();
    return {
      businessName: invitation.businessName,
      email: invitation.email,
      role: invitation.role,
    };
  }

  /**
   * Accepts an invitation: checks the name and password (contracts' `validateInvitationAccept`
   * with the common-password list), then in one transaction uses the link, adds the member of
   * staff with the invitation's address and role, and opens this browser's session. Bad input
   * changes nothing (the link still works).
   * @returns the signed-in member of staff and the session's tokens (the controller sets the cookies)
   * @throws TeamInputInvalidException 400 'Invalid Name' / the password rule's message
   * @throws InvitationInvalidException 400 when the link is unknown, used, revoked or expired
   * @throws StaffEmailTakenException 409 when the address got a Grove account meanwhile
   */
  async accept(body: InvitationAcceptRequest, userAgent: string | null): Promise<AuthResult> {
    const errors = validateInvitationAccept(body, isCommonPassword);
    if (Object.keys(errors).length > 0) throw new TeamInputInvalidException(errors);
    const passwordHash = await hashPassword(body.password);
    const { opened } = await this.join(
      hashRefreshToken(body.token),
      body,
      passwordHash,
      'password',
      userAgent,
    );
    return this.auth.result(opened.userId, opened);
  }

  /**
   * Registration options for accepting an invitation with a passkey instead of a first password
   * (issue 34 item 1, docs/product.md#staff-accounts): checks the names and the passkey's name
   * first (so the browser's prompt never creates a passkey the acceptance then refuses), then
   * hands out `PasskeysService.invitationOptions` bound to this pending invitation. Uses nothing:
   * the link still works.
   * @returns `@simplewebauthn/browser`'s `startRegistration` options
   * @throws TeamInputInvalidException 400 'Invalid Name' / the passkey name's message
   * @throws InvitationInvalidException 400 when the link is unknown, used, revoked or expired
   */
  async passkeyOptions(body: InvitationPasskeyOptionsRequest): Promise<object> {
    const invitation = await this.pendingForPasskey(body);
    return this.passkeys.invitationOptions(
      invitation,
      `${body.firstName.trim()} ${body.lastName.trim()}`,
    );
  }

  /**
   * Accepts an invitation with a passkey: checks the input as `passkeyOptions` does, verifies the
   * browser's answer against that invitation's challenge (`PasskeysService.verifyInvitationRegistration`),
   * then in one transaction uses the link, adds the member of staff (with the id the passkey names;
   * their password is 256 random bits nobody knows, so only the passkey, its recovery codes or
   * 'Forgot your password?' sign them in: docs/decisions/passkeys.md), stores the passkey and its
   * 10 recovery codes (`PasskeysService.addVerified`, the same as Security's 'Add a passkey') and
   * opens this browser's session. A refusal changes nothing.
   * @returns the signed-in member of staff, the session's tokens and the recovery codes (shown once)
   * @throws TeamInputInvalidException 400 'Invalid Name' / the passkey name's message
   * @throws InvitationInvalidException 400 when the link is unknown, used, revoked or expired
   * @throws PasskeyRegistrationException 400 when the passkey does not verify for this invitation
   * @throws PasskeyTakenException 409 when that passkey is registered already
   * @throws StaffEmailTakenException 409 when the address got a Grove account meanwhile
   */
  async acceptWithPasskey(
    body: InvitationPasskeyAcceptRequest,
    userAgent: string | null,
  ): Promise<AuthResult & { recoveryCodes: string[] }> {
    const invitation = await this.pendingForPasskey(body);
    const { newUserId, registration } = await this.passkeys.verifyInvitationRegistration(
      invitation.id,
      body.response,
    );
    const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
    const { opened, also: recoveryCodes } = await this.join(
      hashRefreshToken(body.token),
      { ...body, id: newUserId },
      passwordHash,
      'passkey',
      userAgent,
      async (manager, scope, userId) =>
        (await this.passkeys.addVerified(scope, userId, body.passkeyName, registration, manager))
          .recoveryCodes ?? [],
    );
    return { ...(await this.auth.result(opened.userId, opened)), recoveryCodes };
  }

  /** The pending invitation a passkey acceptance's input names, once its names are valid. */
  private async pendingForPasskey(body: InvitationPasskeyOptionsRequest) {
    const errors = validateInvitationPasskey(body);
    if (Object.keys(errors).length > 0) throw new TeamInputInvalidException(errors);
    const invitation = await this.team.invitationOfLink(hashRefreshToken(body.token));
    if (!invitation) throw new InvitationInvalidException();
    return invitation;
  }

  /**
   * One transaction of an acceptance: uses the link (of two concurrent uses one wins), adds the
   * member of staff with the invitation's address and role, records 'team.joined' in the audit
   * log (author the new member of staff; who, their address, the role, who invited them and
   * whether with a password or a passkey: docs/product.md#audit-log), runs `alsoWith` (a
   * passkey's storage) and opens this browser's session.
   * @throws InvitationInvalidException 400 when the link is unknown, used, revoked or expired
   * @throws StaffEmailTakenException 409 when the address got a Grove account meanwhile
   */
  private join<T = undefined>(
    tokenHash: string,
    person: { id?: string; firstName: string; lastName: string },
    passwordHash: string,
    joinedWith: 'password' | 'passkey',
    userAgent: string | null,
    alsoWith?: (manager: EntityManager, scope: BusinessScope, userId: string) => Promise<T>,
  ) {
    return this.team.transaction(async (manager) => {
      const invitation = await this.team.consume(manager, tokenHash);
      if (!invitation) throw new InvitationInvalidException();
      if (await this.team.emailTaken(manager, invitation.email))
        throw new StaffEmailTakenException();
      const userId = await this.team.insertUser(manager, {
        ...invitation,
        ...(person.id ? { id: person.id } : {}),
        firstName: person.firstName.trim(),
        lastName: person.lastName.trim(),
        passwordHash,
        passwordChosen: joinedWith === 'password',
      });
      const scope = invitationScope(invitation, userId);
      await this.audit.record(scope, manager, {
        kind: 'team.joined',
        after: {
          staff: `${person.firstName.trim()} ${person.lastName.trim()}`,
          email: invitation.email,
          role: STAFF_ROLE_LABELS[invitation.role],
          invitedBy: invitation.invitedByName ?? 'Former staff',
          joinedWith,
        },
      });
      const also = alsoWith ? await alsoWith(manager, scope, userId) : undefined;
      const opened = await this.sessions.open(userId, userAgent, manager);
      return { opened, also: also as T };
    });
  }
}

/** True when the business still has an owner once `id` has `role` (null: once `id` is removed). */
function keepsAnOwner(
  staff: Map<string, { role: StaffRole }>,
  id: string,
  role: StaffRole | null,
): boolean {
  return [...staff].some(([other, { role: current }]) =>
    other === id ? role === 'owner' : current === 'owner',
  );
}
