import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { BusinessScope } from '../../platform/database/business-scope';
import { PreparedReads, preparedStatement } from '../../platform/database/prepared-query';
import { MemberSearchIndex } from './member-search-index';

/** A business with more members than this is searched in PostgreSQL (`MembersRepository`). */
export const MEMBER_SEARCH_INDEX_MAX_MEMBERS = 50_000;

/**
 * Members held in all indexes of one API instance together (~150 bytes each: ~40 MB), the least
 * recently searched business's index dropped first.
 */
const INDEXED_MEMBERS_PER_INSTANCE = 250_000;

/** How long (ms) a business found too large for an index is searched in PostgreSQL before it is looked at again. */
const TOO_LARGE_RECHECK_MS = 60_000;

/** What the cache holds per business: its index, or a mark while it is too large for one. */
type Cached = MemberSearchIndex | { tooLarge: true };

/** A row of `LOAD`: the business's version, and one member (all null for a business without members). */
interface LoadRow {
  version: string;
  id: string | null;
  name: string | null;
  email: string | null;
  name_rank: number;
  email_rank: number;
}

/**
 * The business's version and members in date order with their places by name and email, read in
 * ONE statement (one snapshot: the version is the one those rows are at). `$1` business, `$2` the
 * most rows read (a business past `MEMBER_SEARCH_INDEX_MAX_MEMBERS` is not indexed).
 */
const LOAD = preparedStatement(`
  SELECT b.member_search_version::text AS version, m.id, lower(m.name) AS name, lower(m.email) AS email,
    row_number() OVER (ORDER BY lower(m.name), m.id)::int AS name_rank,
    row_number() OVER (ORDER BY lower(m.email), m.id)::int AS email_rank
  FROM businesses b LEFT JOIN members m ON m.business_id = b.id
  WHERE b.id = $1
  ORDER BY m.created_at, m.id
  LIMIT $2`);

/**
 * The members search's in-memory indexes of one API instance, one per business searched lately
 * (`MemberSearchIndex`; docs/decisions/members-search-in-memory.md). An index is built from one
 * statement the first time a business is searched, and rebuilt when a search finds
 * `businesses.member_search_version` moved on (migration MemberSearchVersion: any member added,
 * removed, renamed or re-addressed, by any instance). Concurrent searches of one business share
 * one build (lru-cache's `fetch`).
 *
 * TENANCY: keyed by the scope's business id; an index holds that business's members only.
 */
@Injectable()
export class MemberSearchIndexes {
  /** A business with more members is searched in PostgreSQL; tests lower it to reach that path. */
  maxMembers = MEMBER_SEARCH_INDEX_MAX_MEMBERS;

  private readonly cache = new LRUCache<string, Cached>({
    maxSize: INDEXED_MEMBERS_PER_INSTANCE,
    sizeCalculation: (cached) => ('tooLarge' in cached ? 1 : Math.max(1, cached.size)),
    fetchMethod: (businessId, _stale, { options }) => this.load(businessId, options),
  });

  constructor(private readonly reads: PreparedReads) {}

  /**
   * The business's index: the one held, or, with `rebuild` (a search found the version moved on)
   * or none held, a new one read now.
   * @returns null when the business has more than `maxMembers` members (search it in SQL)
   * @throws whatever `PreparedReads.query` throws (database unreachable: 503 by the filter)
   */
  async get(scope: BusinessScope, rebuild = false): Promise<MemberSearchIndex | null> {
    const cached = await this.cache.fetch(scope.businessId, { forceRefresh: rebuild });
    return cached === undefined || 'tooLarge' in cached ? null : cached;
  }

  /**
   * Reads the business's members into a new index, or marks it too large for
   * `TOO_LARGE_RECHECK_MS` (the entry's `ttl`, set through lru-cache's fetch options).
   */
  private async load(businessId: string, options: { ttl?: number }): Promise<Cached> {
    const limit = this.maxMembers;
    const rows = await this.reads.query<LoadRow>(LOAD, [businessId, limit + 1]);
    if (rows.length > limit) {
      options.ttl = TOO_LARGE_RECHECK_MS;
      return { tooLarge: true };
    }
    const version = rows[0]?.version ?? '0';
    const entries = [];
    for (const row of rows) {
      if (row.id === null) continue;
      entries.push({
        id: row.id,
        name: row.name ?? '',
        email: row.email ?? '',
        nameRank: row.name_rank,
        emailRank: row.email_rank,
      });
    }
    return new MemberSearchIndex(version, entries);
  }
}
