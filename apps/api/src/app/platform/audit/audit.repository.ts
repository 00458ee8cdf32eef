import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuditActor, AuditEntry, AuditKind, AuditValue } from '@grove/contracts';
import { AUDIT_ACTOR_LABELS } from '@grove/contracts';
import type { BusinessScope } from '../database/business-scope';
import { pageOfRows } from '../database/page-rows';

/** The columns of an `audit_log` row as {@link auditAuthorSql} and an entry's values fill them. */
export const AUDIT_COLUMNS =
  'business_id, actor, author_user_id, author_name, kind, member_id, member_name, before, after';

/**
 * SQL: the first four values of an `audit_log` row ({@link AUDIT_COLUMNS}): the business, the
 * actor's kind, the staff user and that user's name, from parameter references (`'$1'`…) bound to
 * the business id and {@link auditActorParams}. For statements that record their own audit
 * entries beside their change (one statement, no second round trip).
 */
export const auditAuthorSql = (business: string, actor: string, user: string): string =>
  `${business}, ${actor}, ${user},
   (SELECT first_name || ' ' || last_name FROM users WHERE id = ${user} AND business_id = ${business})`;

/** The actor's kind ('system' when none) and staff user id (or null) of `scope`, for {@link auditAuthorSql}. */
export function auditActorParams({ actor }: BusinessScope): [string, string | null] {
  return [actor?.kind ?? 'system', actor?.kind === 'staff' ? actor.userId : null];
}

/** One entry to write (see `AuditLog.record`). */
export interface AuditWrite {
  kind: AuditKind;
  /** The member the change is about, with their name at the time. */
  member?: { id: string; name: string } | null;
  before?: AuditValue | null;
  after?: AuditValue | null;
}

/** What a read of the log keeps (every filter optional; `from` inclusive, `to` exclusive). */
export interface AuditFilter {
  memberId?: string;
  /** A member of staff's user id, or `mindbody`, `stripe`, `system`. */
  author?: string;
  kind?: AuditKind;
  from?: Date;
  to?: Date;
}

/** Where a keyset read of the log stands: the last row's time and id (newest first). */
export interface AuditPosition {
  at: Date;
  id: string;
}

interface AuditSqlRow {
  id: string;
  at: Date;
  actor: AuditActor;
  author_user_id: string | null;
  author_name: string | null;
  kind: AuditKind;
  member_id: string | null;
  member_name: string | null;
  before: AuditValue | null;
  after: AuditValue | null;
}

const COLUMNS = `id, at, actor, author_user_id, author_name, kind, member_id, member_name, before, after`;

function toEntry(row: AuditSqlRow): AuditEntry & { position: AuditPosition } {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actor,
    authorUserId: row.author_user_id,
    authorName:
      row.actor === 'staff' ? (row.author_name ?? 'Former staff') : AUDIT_ACTOR_LABELS[row.actor],
    kind: row.kind,
    memberId: row.member_id,
    memberName: row.member_name,
    before: row.before,
    after: row.after,
    position: { at: row.at, id: row.id },
  };
}

/** The filter as SQL conditions after `business_id = $1` and its parameters from `$2`. */
function whereOf(filter: AuditFilter): { sql: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (n: string) => string, value: unknown): void => {
    params.push(value);
    conditions.push(sql(`$${params.length + 1}`));
  };
  if (filter.memberId) add((n) => `member_id = ${n}`, filter.memberId);
  if (filter.author && ['mindbody', 'stripe', 'system'].includes(filter.author))
    add((n) => `actor = ${n}`, filter.author);
  else if (filter.author) add((n) => `author_user_id = ${n}`, filter.author);
  if (filter.kind) add((n) => `kind = ${n}`, filter.kind);
  if (filter.from) add((n) => `at >= ${n}`, filter.from);
  if (filter.to) add((n) => `at < ${n}`, filter.to);
  return { sql: conditions.map((c) => ` AND ${c}`).join(''), params };
}

/**
 * The audit log (migration AuditLog: `audit_log`, `businesses.audit_retention_days`;
 * docs/decisions/audit-log-append-only.md). TENANCY: every method takes the `BusinessScope` first
 * and reads or writes only its business. It only INSERTs and reads: the table refuses UPDATE and
 * DELETE (a trigger, and in production the API role's grants); `prune` deletes through the
 * owner's `prune_audit_log` function, which deletes only rows past retention.
 */
@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts `entries` in the caller's transaction, the author's name as it is now (a member of
   * staff of this business; another business's user id writes no name).
   */
  async insert(
    scope: BusinessScope,
    manager: EntityManager,
    entries: readonly AuditWrite[],
  ): Promise<void> {
    if (entries.length === 0) return;
    await manager.query(
      `INSERT INTO audit_log (${AUDIT_COLUMNS})
       SELECT ${auditAuthorSql('$1', '$2', '$3')}, e.kind, e.member_id, e.member_name, e.before, e.after
       FROM jsonb_to_recordset($4::jsonb)
         AS e(kind text, member_id uuid, member_name text, before jsonb, after jsonb)`,
      [
        scope.businessId,
        ...auditActorParams(scope),
        JSON.stringify(
          entries.map((entry) => ({
            kind: entry.kind,
            member_id: entry.member?.id ?? null,
            member_name: entry.member?.name ?? null,
            before: entry.before ?? null,
            after: entry.after ?? null,
          })),
        ),
      ],
    );
  }

  /** One page of the log, newest first, and how many entries match the filter. */
  async page(
    { businessId }: BusinessScope,
    filter: AuditFilter,
    offset: number,
    limit: number,
  ): Promise<{ rows: AuditEntry[]; total: number }> {
    const where = whereOf(filter);
    const params = [businessId, ...where.params];
    const rows: (AuditSqlRow & { total: number })[] = await this.dataSource.query(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM audit_log
       WHERE business_id = $1${where.sql}
       ORDER BY at DESC, id DESC OFFSET ${Math.trunc(offset)} LIMIT ${Math.trunc(limit)}`,
      params,
    );
    return pageOfRows(
      rows,
      offset,
      async () => {
        const [row] = (await this.dataSource.query(
          `SELECT count(*)::int AS n FROM audit_log WHERE business_id = $1${where.sql}`,
          params,
        )) as { n: number }[];
        return row?.n ?? 0;
      },
      (row) => {
        const { position: _position, ...entry } = toEntry(row);
        return entry;
      },
    );
  }

  /** The next `limit` entries after `after` (newest first), for the CSV download. */
  async batch(
    { businessId }: BusinessScope,
    filter: AuditFilter,
    after: AuditPosition | null,
    limit: number,
  ): Promise<(AuditEntry & { position: AuditPosition })[]> {
    const where = whereOf(filter);
    const params: unknown[] = [businessId, ...where.params];
    let keyset = '';
    if (after) {
      params.push(after.at, after.id);
      keyset = ` AND (at, id) < ($${params.length - 1}, $${params.length})`;
    }
    const rows: AuditSqlRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM audit_log WHERE business_id = $1${where.sql}${keyset}
       ORDER BY at DESC, id DESC LIMIT ${Math.trunc(limit)}`,
      params,
    );
    return rows.map(toEntry);
  }

  /** The authors of the business's log (staff by their latest name, then Mindbody, Stripe, Grove). */
  async authors({ businessId }: BusinessScope): Promise<{ id: string; name: string }[]> {
    const rows: { id: string; name: string; actor: AuditActor }[] = await this.dataSource.query(
      `SELECT DISTINCT ON (coalesce(author_user_id::text, actor))
              coalesce(author_user_id::text, actor) AS id, actor,
              coalesce(author_name, 'Former staff') AS name
       FROM audit_log WHERE business_id = $1
       ORDER BY coalesce(author_user_id::text, actor), at DESC`,
      [businessId],
    );
    return rows
      .map((row) => ({
        id: row.id,
        name: row.actor === 'staff' ? row.name : AUDIT_ACTOR_LABELS[row.actor],
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** How many days the business keeps its log. */
  async retentionDays({ businessId }: BusinessScope): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT audit_retention_days AS days FROM businesses WHERE id = $1`,
      [businessId],
    )) as { days: number }[];
    return row?.days ?? 730;
  }

  /** Sets how many days the business keeps its log, in the caller's transaction. */
  async setRetentionDays(
    { businessId }: BusinessScope,
    manager: EntityManager,
    days: number,
  ): Promise<void> {
    await manager.query(`UPDATE businesses SET audit_retention_days = $2 WHERE id = $1`, [
      businessId,
      days,
    ]);
  }

  /**
   * Deletes at most `batch` entries past their business's retention (every business: the daily
   * job), through the tables' owner's `prune_audit_log`.
   * @returns how many were deleted
   */
  async prune(batch: number): Promise<number> {
    const [row] = (await this.dataSource.query(`SELECT prune_audit_log($1) AS n`, [batch])) as {
      n: number;
    }[];
    return row?.n ?? 0;
  }

  /** Runs `work` in one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
