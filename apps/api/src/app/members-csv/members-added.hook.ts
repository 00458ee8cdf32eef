import type { EntityManager } from 'typeorm';
import type { BusinessScope } from '../database/business-scope';

/**
 * Injection token of an optional `MembersAddedHook`: the business setting that gives every new
 * member a referral link (issue 14 part 4, "manual, import, approval") provides it. With branch
 * i14-profile's `LinksForEveryoneModule` merged, `MembersCsvModule` imports that module and adds
 * `{ provide: CSV_MEMBERS_ADDED, inject: [LinksForEveryoneService], useFactory: (links) =>
 * ({ membersAdded: async (scope, manager, ids) => void (await links.linkNewMembers(scope, manager, ids)) }) }`.
 */
export const CSV_MEMBERS_ADDED = Symbol('CSV_MEMBERS_ADDED');

/** Told about the members a CSV import has just added, inside the import's transaction. */
export interface MembersAddedHook {
  /**
   * @param manager the import's transaction (it may run twice on a conflict: use only it)
   * @param memberIds the new members (all of `scope`'s business), at most 10,000
   */
  membersAdded(scope: BusinessScope, manager: EntityManager, memberIds: string[]): Promise<void>;
}
