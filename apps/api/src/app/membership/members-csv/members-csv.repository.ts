import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import {
  businessLocale,
  emptyMemberCsvMapping,
  type MemberImportCounts,
  type MemberImportSettings,
  type MemberImportState,
  type IntegrationName,
} from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';
import type { MemberSummary } from '../members/member-row';
import { countingBranch, keptByHand, stripeBilled } from '../pricing/price.sql';
import {
  INTEGRATION_DISCOUNT,
  SUMMARY_COLUMNS,
  SUMMARY_JOINS,
  toSummary,
  type SummarySqlRow,
} from '../members/members.repository';
import type { ExistingMember, PlannedMember } from './import-plan';
import { liveReferralLink } from '../../platform/database/live-referral-link.sql';

/** A member as the export writes it: its summary plus its referrer's email and live link code. */
export interface ExportMember {
  summary: MemberSummary;
  referrerEmail: string | null;
  linkCode: string | null;
  /** The day the member was added to Grove, YYYY-MM-DD in UTC. */
  joinedOn: string;
  /** Keyset position of this row (created_at, id) for the next batch. */
  position: ExportPosition;
}

/** Where an export batch starts after: the last row's (created_at, id). */
export interface ExportPosition {
  /** created_at as PostgreSQL text (microseconds kept; a JS Date would drop them). */
  createdAt: string;
  id: string;
}

/** A stored upload of the business. */
export interface StoredImport {
  id: string;
  headers: string[];
  rows: string[][];
  /** File line of each row. */
  lines: number[];
  totalRows: number;
  /** How the last dry run or the run read the file; null before the first dry run. */
  settings: MemberImportSettings | null;
  state: MemberImportState;
  processedRows: number;
  counts: MemberImportCounts | null;
  error: string | null;
  /** The pg-boss job of its latest run; null when never queued (or queued before the column). */
  jobId: string | null;
}

interface ImportSqlRow {
  id: string;
  headers: string[];
  /** gzip of `StoredRows` as JSON (uploads since MemberImportsCompressed); null before. */
  upload?: Buffer | null;
  /** An upload stored before MemberImportsCompressed: its rows as JSONB (null since). */
  rows?: string[][] | null;
  lines?: number[] | null;
  total_rows: number;
  /** `MemberImportSettings`, or (uploads run before issue 25) a bare mapping with `referrerEmail`. */
  mapping: Record<string, unknown> | null;
  state: MemberImportState;
  processed_rows: number;
  counts: MemberImportCounts | null;
  error: string | null;
  job_id: string | null;
}

type ExportSqlRow = SummarySqlRow & {
  referrer_email: string | null;
  code: string | null;
  created_at: string;
  joined_on: string;
};

/** The stored settings of an upload, also as uploads stored them before issue 25 (a bare mapping). */
function toSettings(stored: Record<string, unknown> | null): MemberImportSettings | null {
  if (stored === null) return null;
  if ('mapping' in stored) return stored as unknown as MemberImportSettings;
  const { referrerEmail, ...columns } = stored as Record<string, number | null>;
  return {
    mapping: { ...emptyMemberCsvMapping(), ...columns, referredBy: referrerEmail ?? null },
  };
}

/** The data rows of an upload and the file line of each, as `member_imports.upload` holds them. */
interface StoredRows {
  rows: string[][];
  lines: number[];
}

const gunzipAsync = promisify(gunzip);

/**
 * Largest decompressed upload read back (bytes): the JSON of a 5 MB file's rows is at most a few
 * times its size (every cell quoted); anything larger is not an upload Grove stored.
 */
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

/**
 * Reads back what `RowPacker` (packed-rows.ts) stored; an upload stored before MemberImportsCompressed still has its
 * rows and lines as JSONB. No rows when the row was read without them.
 */
async function unpackRows(row: ImportSqlRow): Promise<StoredRows> {
  if (row.upload) {
    const json = await gunzipAsync(row.upload, { maxOutputLength: MAX_UNPACKED_BYTES });
    return JSON.parse(json.toString('utf8')) as StoredRows;
  }
  return { rows: row.rows ?? [], lines: row.lines ?? [] };
}

const toImport = (row: ImportSqlRow, stored: StoredRows): StoredImport => ({
  id: row.id,
  headers: row.headers,
  rows: stored.rows,
  lines: stored.lines,
  totalRows: row.total_rows,
  settings: toSettings(row.mapping),
  state: row.state,
  processedRows: row.processed_rows,
  counts: row.counts,
  error: row.error,
  jobId: row.job_id,
});

/** Uploads are kept this long; the next upload of the business deletes older ones. */
const KEEP_UPLOADS = `interval '1 day'`;

/**
 * SQL of CSV in and out (issue 14 part 5): the `member_imports` table (uploads, mapping,
 * progress) and the import's and export's statements on `members`. TENANCY: every method takes the
 * `BusinessScope` first and filters on its business id. The import writes members in set-based
 * statements (one statement per chunk of rows, never row by row) and never touches a member
 * managed by Mindbody or billed on the business's Stripe (`keptByHand` in every write, issue 32).
 */
@Injectable()
export class MembersCsvRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Stores a parsed upload (its header as JSONB, its rows and their lines as `RowPacker` packed
   * them, in `upload`) and deletes the business's uploads older than a day.
   * @returns the new import's id
   */
  async createImport(
    scope: BusinessScope,
    upload: { headers: string[]; packed: Buffer; rowCount: number },
  ): Promise<string> {
    await this.dataSource.query(
      `DELETE FROM member_imports WHERE business_id = $1 AND created_at < now() - ${KEEP_UPLOADS}
         AND state NOT IN ('queued', 'running')`,
      [scope.businessId],
    );
    const [row] = (await this.dataSource.query(
      `INSERT INTO member_imports (business_id, headers, upload, total_rows)
       VALUES ($1, $2::jsonb, $3, $4) RETURNING id`,
      [scope.businessId, JSON.stringify(upload.headers), upload.packed, upload.rowCount],
    )) as { id: string }[];
    return (row as { id: string }).id;
  }

  /**
   * One upload of this business, with its rows (decompressed) when `withRows`; null when not
   * this business's.
   */
  async findImport(
    scope: BusinessScope,
    id: string,
    withRows: boolean,
  ): Promise<StoredImport | null> {
    const rows: ImportSqlRow[] = await this.dataSource.query(
      `SELECT id, headers, ${withRows ? 'upload, rows, lines,' : ''} total_rows, mapping, state, processed_rows, counts, error, job_id
       FROM member_imports WHERE business_id = $1 AND id = $2`,
      [scope.businessId, id],
    );
    const [row] = rows;
    if (!row) return null;
    return toImport(row, await unpackRows(row));
  }

  /**
   * Marks an upload queued with its settings and the id of the job that will run it, only when it
   * is not queued, running or done already; in `manager`'s transaction, which also queues the job
   * (so an upload is never 'queued' without its job).
   * @returns false when it already was (the run is not queued twice)
   */
  async markQueued(
    scope: BusinessScope,
    manager: EntityManager,
    id: string,
    settings: MemberImportSettings,
    jobId: string,
  ): Promise<boolean> {
    const updated = await manager.query(
      `UPDATE member_imports SET state = 'queued', mapping = $3::jsonb, processed_rows = 0, error = NULL,
         job_id = $4
       WHERE business_id = $1 AND id = $2 AND state IN ('uploaded', 'failed') RETURNING id`,
      [scope.businessId, id, JSON.stringify(settings), jobId],
    );
    return changedAny(updated);
  }

  /**
   * Marks a queued or running import 'failed' with `error` when its job is `jobId` (the run the
   * caller found gone), finishing it; a newer run (another job id) is left alone.
   * @returns true when it was marked
   */
  async failStopped(
    scope: BusinessScope,
    id: string,
    jobId: string,
    error: string,
  ): Promise<boolean> {
    const updated = await this.dataSource.query(
      `UPDATE member_imports SET state = 'failed', processed_rows = 0, error = $4, finished_at = now()
       WHERE business_id = $1 AND id = $2 AND job_id = $3 AND state IN ('queued', 'running')
       RETURNING id`,
      [scope.businessId, id, jobId, error],
    );
    return changedAny(updated);
  }

  /**
   * Keeps the settings of a dry run on its upload (for its failed-rows file) while the upload has
   * not been queued; a queued, running or done upload keeps its run's.
   */
  async keepDryRunSettings(
    scope: BusinessScope,
    id: string,
    settings: MemberImportSettings,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE member_imports SET mapping = $3::jsonb
       WHERE business_id = $1 AND id = $2 AND state IN ('uploaded', 'failed')`,
      [scope.businessId, id, JSON.stringify(settings)],
    );
  }

  /**
   * Starts the run of job `jobId`: its queued upload becomes 'running' at 0 rows with a fresh
   * heartbeat. Outside the import's transaction, so polls see it.
   * @returns false when the upload is not queued for this job (reported failed, or run by a newer
   *   job): the job then does nothing
   */
  async startRun(scope: BusinessScope, id: string, jobId: string): Promise<boolean> {
    const updated = await this.dataSource.query(
      `UPDATE member_imports SET state = 'running', processed_rows = 0, heartbeat_at = now()
       WHERE business_id = $1 AND id = $2 AND job_id = $3 AND state = 'queued' RETURNING id`,
      [scope.businessId, id, jobId],
    );
    return changedAny(updated);
  }

  /**
   * The running import of job `jobId` is alive: its heartbeat is now, and its progress
   * `processedRows` when given. Outside the import's transaction, so polls see it; nothing when
   * the import is no longer this job's running one.
   */
  async beat(
    scope: BusinessScope,
    id: string,
    jobId: string,
    processedRows?: number,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE member_imports SET heartbeat_at = now(), processed_rows = COALESCE($4, processed_rows)
       WHERE business_id = $1 AND id = $2 AND job_id = $3 AND state = 'running'`,
      [scope.businessId, id, jobId, processedRows ?? null],
    );
  }

  /**
   * Ends the running import of job `jobId` as 'done' with its counts, in the import's own
   * transaction (`manager`): the members and the 'done' commit together. The row stays locked until
   * the commit, so a poll that finds the run stale (`failStale`) waits and then sees it done.
   * @returns false when the import was reported failed meanwhile (or run by a newer job): the
   *   caller must then roll back, so that 'nothing was written' stays true
   */
  async finishRun(
    scope: BusinessScope,
    manager: EntityManager,
    id: string,
    jobId: string,
    done: { processedRows: number; counts: MemberImportCounts },
  ): Promise<boolean> {
    const updated = await manager.query(
      `UPDATE member_imports SET state = 'done', processed_rows = $4, counts = $5::jsonb, error = NULL,
         finished_at = now()
       WHERE business_id = $1 AND id = $2 AND job_id = $3 AND state = 'running' RETURNING id`,
      [scope.businessId, id, jobId, done.processedRows, JSON.stringify(done.counts)],
    );
    return changedAny(updated);
  }

  /**
   * Marks the import of job `jobId` 'failed' with `error` when it is 'running' and its heartbeat
   * is older than `staleSeconds` (by the database's clock): its process stopped under it.
   * @returns true when it was marked
   */
  async failStale(
    scope: BusinessScope,
    id: string,
    jobId: string,
    staleSeconds: number,
    error: string,
  ): Promise<boolean> {
    const updated = await this.dataSource.query(
      `UPDATE member_imports SET state = 'failed', processed_rows = 0, error = $5, finished_at = now()
       WHERE business_id = $1 AND id = $2 AND job_id = $3 AND state = 'running'
         AND COALESCE(heartbeat_at, '-infinity') < now() - make_interval(secs => $4)
       RETURNING id`,
      [scope.businessId, id, jobId, staleSeconds, error],
    );
    return changedAny(updated);
  }

  /**
   * Every member of the business as the import compares them; inside the import's transaction
   * after `lockImports`, so what the plan saw is what it writes over.
   */
  async findExisting(scope: BusinessScope, manager?: EntityManager): Promise<ExistingMember[]> {
    const rows: {
      id: string;
      name: string;
      email: string;
      email_key: string;
      membership_price_cents: number;
      discount_cents: number;
      referred_by_id: string | null;
      referred_by_note: string | null;
      managed_by: IntegrationName | null;
    }[] = await (manager ?? this.dataSource).query(
      `SELECT m.id, m.name, m.email, m.email_key, m.membership_price_cents, m.discount_cents,
         m.referred_by_id, m.referred_by_note,
         CASE WHEN m.mindbody_client_id IS NOT NULL THEN 'Mindbody'
           WHEN ${stripeBilled('m')} THEN 'Stripe' END AS managed_by
       FROM members m WHERE m.business_id = $1`,
      [scope.businessId],
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      emailKey: row.email_key,
      membershipPriceCents: row.membership_price_cents,
      discountCents: row.discount_cents,
      referredById: row.referred_by_id,
      referredByNote: row.referred_by_note,
      managedBy: row.managed_by,
    }));
  }

  /** One CSV import of this business at a time: a transaction lock on the business's imports. */
  async lockImports(scope: BusinessScope, manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('members-csv'), hashtext($1))`, [
      scope.businessId,
    ]);
  }

  /**
   * Inserts new hand-added members in one statement, with the ids the import gave them and their
   * referrers (a member written before or in the same statement); a member whose email key
   * appeared since the plan was made is left alone (then a branch naming it fails the foreign key
   * and the whole import rolls back).
   * @returns id, email key and referrer of each inserted member
   */
  async insertMembers(
    scope: BusinessScope,
    manager: EntityManager,
    members: (PlannedMember & { id: string; referredById: string | null })[],
  ): Promise<{ id: string; emailKey: string; referredById: string | null }[]> {
    if (members.length === 0) return [];
    const rows: { id: string; email_key: string; referred_by_id: string | null }[] =
      await manager.query(
        `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents,
           id, referred_by_id)
         SELECT $1, i.name, i.email, i.email_key, i.price, i.discount, i.id, i.referred_by_id
         FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::uuid[], $8::uuid[])
           AS i(name, email, email_key, price, discount, id, referred_by_id)
         ON CONFLICT (business_id, email_key) DO NOTHING
         RETURNING id, email_key, referred_by_id`,
        [
          scope.businessId,
          ...memberColumns(members),
          members.map((member) => member.id),
          members.map((member) => member.referredById),
        ],
      );
    return rows.map((row) => ({
      id: row.id,
      emailKey: row.email_key,
      referredById: row.referred_by_id,
    }));
  }

  /**
   * Changes hand-added members (by id; the plan matched them by email key) in one statement;
   * members managed by Mindbody or Stripe and members that already have these values are not touched.
   * @returns id and email key of each changed member
   */
  async updateMembers(
    scope: BusinessScope,
    manager: EntityManager,
    members: (PlannedMember & { id: string })[],
  ): Promise<{ id: string; emailKey: string }[]> {
    if (members.length === 0) return [];
    const [rows] = (await manager.query(
      `UPDATE members m SET name = i.name, email = i.email, email_key = i.email_key,
         membership_price_cents = i.price, discount_cents = i.discount
       FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::uuid[])
         AS i(name, email, email_key, price, discount, id)
       WHERE m.business_id = $1 AND m.id = i.id AND ${keptByHand('m')}
         AND (m.name, m.email, m.membership_price_cents, m.discount_cents)
           IS DISTINCT FROM (i.name, i.email, i.price, i.discount)
       RETURNING m.id, m.email_key`,
      [scope.businessId, ...memberColumns(members), members.map((member) => member.id)],
    )) as [{ id: string; email_key: string }[], number];
    return rows.map((row) => ({ id: row.id, emailKey: row.email_key }));
  }

  /**
   * Makes members branches of their referrers (ids, both of this business) in one statement,
   * where it changes; never on a member managed by Mindbody or Stripe, nor under such a referrer.
   * @returns member id and new referrer id of each change
   */
  async setReferrers(
    scope: BusinessScope,
    manager: EntityManager,
    referrals: { memberId: string; referrerId: string }[],
  ): Promise<{ memberId: string; referrerId: string }[]> {
    if (referrals.length === 0) return [];
    // By primary key on both sides: rows inserted in this transaction are not in the planner's
    // statistics yet, and a join on email keys could then be planned as nested sequential scans.
    const [rows] = (await manager.query(
      `UPDATE members m SET referred_by_id = i.referrer_id
       FROM unnest($2::uuid[], $3::uuid[]) AS i(member_id, referrer_id)
       WHERE m.business_id = $1 AND m.id = i.member_id AND ${keptByHand('m')}
         AND m.id <> i.referrer_id AND m.referred_by_id IS DISTINCT FROM i.referrer_id
         AND EXISTS (SELECT 1 FROM members r WHERE r.business_id = $1 AND r.id = i.referrer_id
                       AND ${keptByHand('r')})
       RETURNING m.id AS member_id, m.referred_by_id AS referrer_id`,
      [
        scope.businessId,
        referrals.map((referral) => referral.memberId),
        referrals.map((referral) => referral.referrerId),
      ],
    )) as [{ member_id: string; referrer_id: string }[], number];
    return rows.map((row) => ({ memberId: row.member_id, referrerId: row.referrer_id }));
  }

  /**
   * Keeps "referred by" names of no member on members without a referrer (by id), in one statement:
   * they wait in Referrals to match (issue 33 item 4). Never on a member managed by Mindbody or Stripe, a member
   * who has a referrer by now, or where the note is already the same.
   * @returns how many members got a note
   */
  async setReferredByNotes(
    scope: BusinessScope,
    manager: EntityManager,
    notes: { memberId: string; note: string }[],
  ): Promise<number> {
    if (notes.length === 0) return 0;
    const [, count] = (await manager.query(
      `UPDATE members m SET referred_by_note = i.note
       FROM unnest($2::uuid[], $3::text[]) AS i(member_id, note)
       WHERE m.business_id = $1 AND m.id = i.member_id AND ${keptByHand('m')}
         AND m.referred_by_id IS NULL AND m.referred_by_note IS DISTINCT FROM i.note`,
      [scope.businessId, notes.map((note) => note.memberId), notes.map((note) => note.note)],
    )) as [unknown, number];
    return count;
  }

  /**
   * One batch of the export, in (created_at, id) order after `after`: each member's columns,
   * branch count, referrer's email and live referral link code, the business's Mindbody discount.
   */
  async exportBatch(
    scope: BusinessScope,
    after: ExportPosition | null,
    limit: number,
  ): Promise<ExportMember[]> {
    const rows: ExportSqlRow[] = await this.dataSource.query(
      `SELECT ${SUMMARY_COLUMNS}, m.created_at::text AS created_at,
         to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS joined_on,
         (SELECT count(*) FROM members b WHERE b.business_id = $1 AND b.referred_by_id = m.id
           AND ${countingBranch('b')})::int AS branch_count,
         ${INTEGRATION_DISCOUNT},
         r.email AS referrer_email,
         (SELECT l.code FROM referral_links l WHERE l.business_id = $1 AND l.member_id = m.id
            AND ${liveReferralLink()} LIMIT 1) AS code
       FROM members m ${SUMMARY_JOINS}
       LEFT JOIN members r ON r.business_id = $1 AND r.id = m.referred_by_id
       WHERE m.business_id = $1 AND ($2::timestamptz IS NULL OR (m.created_at, m.id) > ($2::timestamptz, $3::uuid))
       ORDER BY m.created_at, m.id
       LIMIT $4`,
      [scope.businessId, after?.createdAt ?? null, after?.id ?? null, limit],
    );
    return rows.map((row) => ({
      summary: toSummary(row),
      referrerEmail: row.referrer_email,
      linkCode: row.code,
      joinedOn: row.joined_on,
      position: { createdAt: row.created_at, id: row.id },
    }));
  }

  /**
   * The business's own currency (ISO 4217, upper case, from its country: `businessLocale`), the
   * export's 'Currency' of a member not billed on the business's Stripe.
   */
  async businessCurrency(scope: BusinessScope): Promise<string> {
    const [row] = (await this.dataSource.query(
      `SELECT country, time_zone FROM businesses WHERE id = $1`,
      [scope.businessId],
    )) as { country: string; time_zone: string | null }[];
    return businessLocale(row?.country ?? 'AU', row?.time_zone ?? null).currency;
  }

  /** Runs `work` in one transaction (`runTransaction`: it may run twice on a conflict). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}

/**
 * Whether an UPDATE changed a row: TypeORM answers an UPDATE (or DELETE) through `query` with
 * `[rows, row count]`, never with the rows alone.
 */
function changedAny(answer: unknown): boolean {
  return (answer as [unknown[], number])[1] > 0;
}

/** The unnest arrays of planned members: names, emails, email keys, prices, discounts (cents). */
function memberColumns(
  members: PlannedMember[],
): [string[], string[], string[], number[], number[]] {
  return [
    members.map((member) => member.name),
    members.map((member) => member.email),
    members.map((member) => member.emailKey),
    members.map((member) => member.membershipPriceCents),
    members.map((member) => member.discountCents),
  ];
}
