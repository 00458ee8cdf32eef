import { BusinessCounterMigration } from '../business-counter';

/**
 * Keeps `businesses.prospect_count` equal to the business's number of prospects (rows of
 * `prospects`; flagged joins are not prospects), so the Prospective Members page's total costs
 * one row read instead of counting the business's prospects on every request. The same counter
 * as `BusinessMemberCount` (`businessCounterSql`): a batch (a Mindbody import page, a tree removed
 * with its prospects through the foreign key's cascade) updates it once per business. `down()`
 * drops the triggers, their functions and the column.
 */
export class BusinessProspectCount1795482902020 extends BusinessCounterMigration {
  name = 'BusinessProspectCount1795482902020';
  protected readonly table = 'prospects';
  protected readonly column = 'prospect_count';
}
