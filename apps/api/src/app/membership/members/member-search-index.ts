import type { MemberSortKey } from '@grove/contracts';

/** A member as the search index reads it: name and email as PostgreSQL's `lower()` gives them. */
export interface MemberSearchEntry {
  id: string;
  /** `lower(name)`, from PostgreSQL (its collation's case rules, as the SQL search). */
  name: string;
  /** `lower(email)`, from PostgreSQL. */
  email: string;
  /** 1-based place in `ORDER BY lower(name), id` (PostgreSQL's collation). */
  nameRank: number;
  /** 1-based place in `ORDER BY lower(email), id`. */
  emailRank: number;
}

/** The sorts the index answers; sorting by branch count needs counts it does not hold. */
export type IndexedSort = Exclude<MemberSortKey, 'branches'>;

/** Between one member's text and the next, and between name and email: PostgreSQL text has no NUL. */
const SEPARATOR = '\u0000';

/**
 * One business's members for the Branches search, in memory: what `lower(name) LIKE '%t%' OR
 * lower(email) LIKE '%t%'` reads (docs/product.md#branches), with the members' places in each
 * sort, so a search finds, counts and orders its matches exactly as the SQL search would without
 * visiting their rows (docs/decisions/members-search-in-memory.md).
 *
 * Immutable: built once from `entries` in date order (`ORDER BY created_at, id`) at `version`
 * (`businesses.member_search_version`); a newer version means a new index.
 */
export class MemberSearchIndex {
  /** Every member's `name NUL email NUL`, in date order: one string, searched with `indexOf`. */
  private readonly text: string;
  /** Where each member's text starts in `text` (UTF-16 offsets), in date order. */
  private readonly starts: Uint32Array;
  private readonly ids: string[];
  private readonly nameRanks: Uint32Array;
  private readonly emailRanks: Uint32Array;

  /**
   * @param version `businesses.member_search_version` (decimal text) the entries were read at
   * @param entries the business's members in date order (`ORDER BY created_at, id`)
   */
  constructor(
    readonly version: string,
    entries: readonly MemberSearchEntry[],
  ) {
    const count = entries.length;
    this.starts = new Uint32Array(count);
    this.ids = new Array<string>(count);
    this.nameRanks = new Uint32Array(count);
    this.emailRanks = new Uint32Array(count);
    const parts = new Array<string>(count);
    let offset = 0;
    for (let i = 0; i < count; i += 1) {
      const entry = entries[i];
      const part = entry.name + SEPARATOR + entry.email + SEPARATOR;
      parts[i] = part;
      this.starts[i] = offset;
      offset += part.length;
      this.ids[i] = entry.id;
      this.nameRanks[i] = entry.nameRank;
      this.emailRanks[i] = entry.emailRank;
    }
    this.text = parts.join('');
  }

  /** The number of members indexed. */
  get size(): number {
    return this.ids.length;
  }

  /**
   * The ids of the members whose name or email contains `needle`, in the list's order: by date,
   * name or email (`lower()`), ties by id, ascending or descending, as the SQL page orders them.
   * @param needle the search text lowered as the SQL search lowers it (`likeSubstring`); empty
   *   matches every member
   */
  search(needle: string, sort: IndexedSort, order: 'asc' | 'desc'): string[] {
    return this.searchPage(needle, sort, order, 0, this.ids.length).ids;
  }

  /**
   * One page of `search`: the ids of matches `offset` to `offset + limit - 1` in the list's order,
   * and how many match in all. Only the page's ids are looked up (issue 36: a search page mapped
   * every match to its id, 1,000 for "patel", to keep 50).
   */
  searchPage(
    needle: string,
    sort: IndexedSort,
    order: 'asc' | 'desc',
    offset: number,
    limit: number,
  ): { ids: string[]; total: number } {
    const found = this.matches(needle);
    if (sort === 'memberName' || sort === 'memberEmail') {
      const ranks = sort === 'memberName' ? this.nameRanks : this.emailRanks;
      found.sort((a, b) => ranks[a] - ranks[b]);
    }
    const total = found.length;
    const ids: string[] = [];
    for (let place = offset; place < Math.min(total, offset + limit); place += 1)
      ids.push(this.ids[found[order === 'desc' ? total - 1 - place : place]]);
    return { ids, total };
  }

  /** Places (date order) of the members whose name or email contains `needle`. */
  private matches(needle: string): number[] {
    const found: number[] = [];
    if (needle.includes(SEPARATOR)) return found;
    const count = this.ids.length;
    let from = 0;
    let member = 0;
    while (from < this.text.length) {
      const at = this.text.indexOf(needle, from);
      if (at < 0) break;
      member = this.memberAt(at, member);
      found.push(member);
      // One match per member: go on from the next member's text.
      from = member + 1 < count ? this.starts[member + 1] : this.text.length;
    }
    return found;
  }

  /** The member whose text holds offset `at`, searching from member `low` on (binary search). */
  private memberAt(at: number, low: number): number {
    let high = this.ids.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.starts[middle] <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}
