import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type PgBoss from 'pg-boss';
import { isUUID } from 'class-validator';
import { MindbodyRequestError } from '@grove/api-mindbody';
import { MESSAGES } from '@grove/contracts';
import { JobsService } from '../../../platform/jobs/jobs.service';
import { errorMessage } from '../../../platform/common/error-message';
import { jobActor, jobScope, type BusinessScope } from '../../../platform/database/business-scope';
import { MembershipEvents } from '../../../membership/events/membership-events';
import { MemberNotFoundException } from '../../../membership/members/members.exceptions';
import { AuditLog } from '../../../platform/audit/audit-log';
import { MindbodySiteClient } from '../client/mindbody-site-client';
import { MindbodySiteSession } from '../client/mindbody-site-session';
import type { MindbodyClientRecord } from '../client/mindbody-records';
import { MindbodyCrypto } from '../persistence/mindbody-crypto';
import { MindbodyMembersRepository } from '../persistence/mindbody-members.repository';
import { MindbodyRepository } from '../persistence/mindbody.repository';
import {
  MindbodyAddNotConnectedException,
  MindbodyAddNotFailedException,
  MindbodyFailedException,
  MindbodyReferralTypeUnknownException,
} from '../mindbody.exceptions';
import type { MindbodyIntegrationEntity } from '../persistence/mindbody-integration.entity';

/** The pg-boss queue of 'Add to Mindbody' (issue 33 item 4). */
export const MINDBODY_ADD_CLIENT_QUEUE = 'mindbody.add-client';

/** Data of a `mindbody.add-client` job: the member to add as a Mindbody client. */
export interface MindbodyAddClientJob {
  businessId: string;
  memberId: string;
  /** The member of staff who approved (the audit entry names them); absent: Grove. */
  actorUserId?: string;
}

/** AddClient fields Grove can fill from a member (its name split in two, its email). */
const FIELDS_GROVE_HAS = new Set(['FirstName', 'LastName', 'Email']);

/**
 * A member's name as Mindbody's FirstName and LastName: the first word, and the rest ('' for a
 * one-word name, which Mindbody refuses: "You must specify a last name").
 */
export function splitName(name: string): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

/**
 * The fields Mindbody requires of a new client (`required`, GetRequiredClientFields) that Grove
 * cannot send for this member, in Mindbody's names: fields it never has (MobilePhone, BirthDate,
 * …), LastName for a one-word name, ReferredBy when no referral type is picked.
 */
export function missingClientFields(
  required: readonly string[],
  fields: { lastName: string; referredBy: string | null },
): string[] {
  const missing = required.filter(
    (field) => !FIELDS_GROVE_HAS.has(field) && !(field === 'ReferredBy' && fields.referredBy),
  );
  if (!fields.lastName) missing.unshift('LastName');
  return [...new Set(missing)];
}

/**
 * 'Add to Mindbody' at an approval (issue 33 item 4, docs/decisions/mindbody-add-client.md): the
 * owner's choice in the approval dialog is the confirmation, and nothing is written to Mindbody
 * without it. The approval announces 'member.mindbody-client-requested' in its transaction; this
 * marks the new member 'pending' and queues a `mindbody.add-client` job in that same transaction
 * (a Mindbody that is not connected refuses, and the approval rolls back). The job, under the
 * business's Mindbody lock (no import or sync writes beside it):
 * 1. looks the member's email up among the site's clients (`GetClients` searchText): an existing
 *    client is linked, never duplicated — so a re-run after a timeout that did add the client
 *    links it (AddClient has no idempotency key and is never retried blindly);
 * 2. reads the site's required fields (`GetRequiredClientFields`): one Grove cannot fill fails the
 *    member with a message naming them;
 * 3. adds the client (`AddClient`: FirstName, LastName, Email, and the owner's referral type as
 *    ReferredBy) and keeps its `Id` and `UniqueId` on the member, as the import does, so the next
 *    sync and webhooks match it; the write is audited ('integration.client_added').
 * A refusal (Mindbody's 400) or Mindbody staying unreachable after the job's retries marks the
 * member 'failed' with a message the owner reads on the Branches screen, and 'Try again'
 * ({@link retry}) queues the job again. Never throws at the owner once the approval committed.
 */
@Injectable()
export class MindbodyAddClient implements OnModuleInit {
  private readonly logger = new Logger(MindbodyAddClient.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly events: MembershipEvents,
    private readonly integrations: MindbodyRepository,
    private readonly members: MindbodyMembersRepository,
    private readonly siteClient: MindbodySiteClient,
    private readonly crypto: MindbodyCrypto,
    private readonly audit: AuditLog,
  ) {}

  /** Registers the queue (2 retries, 10 s apart then doubled) and the approval's listener. */
  async onModuleInit(): Promise<void> {
    await this.jobs.register<MindbodyAddClientJob>(
      { name: MINDBODY_ADD_CLIENT_QUEUE, retryLimit: 2, retryDelay: 10, retryBackoff: true },
      (data, job) => this.run(data, job),
    );
    this.events.on('member.mindbody-client-requested', ({ scope, manager, memberId }) =>
      this.request(scope, manager, memberId, false),
    );
  }

  /**
   * The site's referral types (`GET /client/clientreferraltypes`) and the one picked (null: none).
   * @throws MindbodyAddNotConnectedException 409 below stage 2
   * @throws MindbodyFailedException 502 when Mindbody fails
   */
  async referralTypes(
    scope: BusinessScope,
  ): Promise<{ referralTypes: string[]; selected: string | null }> {
    const integration = await this.connected(scope);
    return {
      referralTypes: await this.siteReferralTypes(scope, integration),
      selected: integration.addClientReferralType,
    };
  }

  /**
   * Saves the referral type sent as AddClient's `ReferredBy` (null: none), once the site lists it.
   * @throws MindbodyReferralTypeUnknownException 400 when the site does not list it (nothing saved)
   * @throws MindbodyAddNotConnectedException 409 below stage 2
   * @throws MindbodyFailedException 502 when Mindbody fails
   */
  async saveReferralType(
    scope: BusinessScope,
    referralType: string | null,
  ): Promise<{ referralTypes: string[]; selected: string | null }> {
    const integration = await this.connected(scope);
    const referralTypes = await this.siteReferralTypes(scope, integration);
    if (referralType !== null && !referralTypes.includes(referralType))
      throw new MindbodyReferralTypeUnknownException();
    if (!(await this.integrations.saveReferralType(scope, referralType)))
      throw new MindbodyAddNotConnectedException();
    return { referralTypes, selected: referralType };
  }

  /** The business's integration at stage 2 or more, else 409 `MindbodyAddNotConnectedException`. */
  private async connected(scope: BusinessScope): Promise<MindbodyIntegrationEntity> {
    const integration = await this.integrations.find(scope);
    if (!integration || integration.stage < 2) throw new MindbodyAddNotConnectedException();
    return integration;
  }

  /** A session on the business's site (its calls are recorded by the caller, `recordCalls`). */
  private session(integration: MindbodyIntegrationEntity): MindbodySiteSession {
    return new MindbodySiteSession(integration, this.siteClient, this.crypto, this.integrations);
  }

  /** The site's referral types; 502 `MindbodyFailedException` when Mindbody fails. */
  private async siteReferralTypes(
    scope: BusinessScope,
    integration: MindbodyIntegrationEntity,
  ): Promise<string[]> {
    const session = this.session(integration);
    try {
      return await session.call((client) => client.referralTypes());
    } catch (error) {
      this.logger.warn(`Mindbody referral types failed: ${errorMessage(error)}`);
      throw new MindbodyFailedException();
    } finally {
      await this.integrations.recordCalls(scope, session.calls, false);
    }
  }

  /**
   * 'Try again' on a member whose adding to Mindbody failed: marks it 'pending' and queues the
   * job again (committed together).
   * @throws MemberNotFoundException 404 (unknown id, another business's member)
   * @throws MindbodyAddNotFailedException 409 when its last attempt did not fail
   * @throws MindbodyAddNotConnectedException 409 when Mindbody is no longer connected
   */
  async retry(scope: BusinessScope, memberId: string): Promise<void> {
    if (!isUUID(memberId)) throw new MemberNotFoundException();
    const member = await this.members.clientRequest(scope, memberId);
    if (!member) throw new MemberNotFoundException();
    await this.members.transaction((manager) => this.request(scope, manager, memberId, true));
    this.jobs.wake(MINDBODY_ADD_CLIENT_QUEUE);
  }

  /**
   * Marks the member 'pending' and queues its job in `manager`'s transaction.
   * @throws MindbodyAddNotConnectedException 409 below stage 2
   * @throws MindbodyAddNotFailedException 409 when nothing was marked (with `onlyFailed`: not
   *   failed; else already a Mindbody client)
   */
  private async request(
    scope: BusinessScope,
    manager: EntityManager,
    memberId: string,
    onlyFailed: boolean,
  ): Promise<void> {
    await this.connected(scope);
    if (!(await this.members.requestClient(scope, manager, memberId, onlyFailed)))
      throw new MindbodyAddNotFailedException();
    await this.jobs.send<MindbodyAddClientJob>(
      MINDBODY_ADD_CLIENT_QUEUE,
      { businessId: scope.businessId, memberId, ...jobActor(scope) },
      { manager },
    );
  }

  /**
   * One job (see the class). Safe to run twice: a member already linked, removed or no longer
   * pending is left alone, and the email is looked up before anything is added.
   * @param job pg-boss's metadata: on the last attempt, Mindbody still unreachable fails the
   *   member instead of throwing
   * @throws while Mindbody is unreachable and attempts are left (pg-boss retries the job)
   */
  async run(data: MindbodyAddClientJob, job?: PgBoss.JobWithMetadata<unknown>): Promise<void> {
    const scope = jobScope(data);
    const lastAttempt = !job || job.retryCount >= job.retryLimit;
    await this.integrations.withBusinessLock(data.businessId, async () => {
      const member = await this.members.clientRequest(scope, data.memberId);
      if (!member || member.clientId !== null || member.state !== 'pending') return;
      const integration = await this.integrations.find(scope);
      if (!integration || integration.stage < 2) {
        await this.members.failClient(scope, data.memberId, MESSAGES.mindbodyAddNotConnected);
        return;
      }
      const session = this.session(integration);
      try {
        await this.addOrLink(
          scope,
          data.memberId,
          member,
          integration.addClientReferralType,
          session,
        );
      } catch (error) {
        if (error instanceof MindbodyRequestError && error.status >= 400 && error.status < 500) {
          await this.members.failClient(
            scope,
            data.memberId,
            `${MESSAGES.mindbodyAddRefused} ${error.mindbodyMessage}`,
          );
          return;
        }
        this.logger.warn(
          `Adding member ${data.memberId} of business ${data.businessId} to Mindbody failed: ${errorMessage(error)}`,
        );
        if (!lastAttempt) throw error;
        await this.members.failClient(scope, data.memberId, MESSAGES.mindbodyAddUnreachable);
      } finally {
        await this.integrations.recordCalls(scope, session.calls, false);
      }
    });
  }

  /** Steps 1–3 of the class: link the client of the email, else check the fields and add one. */
  private async addOrLink(
    scope: BusinessScope,
    memberId: string,
    member: { name: string; email: string },
    referralType: string | null,
    session: MindbodySiteSession,
  ): Promise<void> {
    const [existing] = await session.call((client) => client.clientsByEmail(member.email));
    if (existing) {
      await this.link(scope, memberId, member.name, existing, false);
      return;
    }
    const { firstName, lastName } = splitName(member.name);
    const required = await session.call((client) => client.requiredClientFields());
    const missing = missingClientFields(required, { lastName, referredBy: referralType });
    if (missing.length > 0) {
      await this.members.failClient(
        scope,
        memberId,
        `${MESSAGES.mindbodyAddMissingFields} ${missing.join(', ')}. ${MESSAGES.mindbodyAddInMindbody}`,
      );
      return;
    }
    const added = await session.call((client) =>
      client.addClient({
        FirstName: firstName,
        LastName: lastName,
        Email: member.email,
        ...(referralType ? { ReferredBy: referralType } : {}),
      }),
    );
    await this.link(scope, memberId, member.name, added, true);
  }

  /**
   * Keeps `client` on the member with its audit entry; when another member already holds that
   * client, the member fails with a message saying so.
   */
  private async link(
    scope: BusinessScope,
    memberId: string,
    name: string,
    client: MindbodyClientRecord,
    added: boolean,
  ): Promise<void> {
    const linked = await this.members.linkClient(
      scope,
      memberId,
      { id: client.id, uniqueId: client.uniqueId, referredBy: client.referredBy },
      (manager) =>
        this.audit.record(scope, manager, {
          kind: 'integration.client_added',
          member: { id: memberId, name },
          after: {
            integration: 'Mindbody',
            clientId: client.id,
            client: added ? 'added' : 'existing client linked',
          },
        }),
    );
    if (!linked)
      await this.members.failClient(
        scope,
        memberId,
        `${MESSAGES.mindbodyAddRefused} client ${client.id} already belongs to another member`,
      );
  }
}
