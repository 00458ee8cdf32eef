import { BusinessCounterMigration } from '../business-counter';

/**
 * Keeps `businesses.member_count` equal to the business's number of members, so the trees table's
 * total costs one row read instead of counting 10,000 rows on every page. Statement-level
 * triggers with transition tables: a batch insert (e.g. a Mindbody import page) updates the
 * counter once per business, not once per row (`businessCounterSql`).
 */
export class BusinessMemberCount1763769600000 extends BusinessCounterMigration {
  name = 'BusinessMemberCount1763769600000';
  protected readonly table = 'members';
  protected readonly column = 'member_count';
}
