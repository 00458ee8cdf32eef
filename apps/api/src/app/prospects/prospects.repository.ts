import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { PreparedReads, preparedStatement } from '../database/prepared-query';
import { ProspectEntity } from './prospect.entity';

/** Columns of a prospective member to insert. */
export interface NewProspect {
  referringMemberId: string;
  name: string;
  email: string;
  emailKey: string;
  /** 'Mindbody' when the referring member is managed by it, else null. */
  source: string | null;
}

/** A prospective member with the name of the member who referred them. */
export interface ProspectSummary {
  id: string;
  name: string;
  email: string;
  referringMemberId: string;
  referringMemberName: string;
  source: string | null;
  createdAt: Date;
}

interface ProspectSqlRow {
  id: string;
  name: string;
  email: string;
  referring_member_id: string;
  referring_member_name: string;
  source: string | null;
  created_at: Date;
  total: number;
}

/** The prospects page: `$1` business, `$2` page size, `$3` offset. */
const PROSPECT_PAGE = preparedStatement(
  `SELECT p.id, p.name, p.email, p.referring_member_id, m.name AS referring_member_name, p.source, p.created_at,
     (SELECT count(*)::int FROM prospects WHERE business_id = $1) AS total
   FROM (SELECT id, name, email, referring_member_id, source, created_at FROM prospects
         WHERE business_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3) p
   JOIN LATERAL (
     SELECT m.name FROM members m
     WHERE m.id = p.referring_member_id AND m.business_id = $1 OFFSET 0) m ON true
   ORDER BY p.created_at, p.id`,
);

/**
 * The only way to the `prospects` table. TENANCY: every method takes the business id and every
 * statement filters on it (for a join, the business of the referral code). Methods that change
 * data take the transaction's EntityManager.
 */
@Injectable()
export class ProspectsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reads: PreparedReads,
  ) {}

  /**
   * One page of the business's prospects (oldest first) and their number, in ONE named prepared
   * statement with a generic plan (`PreparedReads`). The page is cut first (a walk of
   * prospects_business_created_idx) and only its rows look up their referring member's name (a
   * LATERAL subquery fenced by OFFSET 0, by primary key): joined before the LIMIT, the planner
   * hash-joined every member of the business on every request (`npm run bench:scale`).
   */
  async findPage(businessId: string, query: { offset: number; limit: number }): Promise<{ rows: ProspectSummary[]; total: number }> {
    const rows = await this.reads.query<ProspectSqlRow>(PROSPECT_PAGE, [businessId, query.limit, query.offset]);
    if (rows.length === 0) {
      if (query.offset === 0) return { rows: [], total: 0 };
      const [count] = (await this.dataSource.query(`SELECT count(*)::int AS total FROM prospects WHERE business_id = $1`, [
        businessId,
      ])) as { total: number }[];
      return { rows: [], total: count?.total ?? 0 };
    }
    return {
      total: rows[0].total,
      rows: rows.map((row) => ({
        id: row.id,
        name: row.name,
        email: row.email,
        referringMemberId: row.referring_member_id,
        referringMemberName: row.referring_member_name,
        source: row.source,
        createdAt: row.created_at,
      })),
    };
  }

  /**
   * Queues a prospect unless this business already has one with the same email key
   * (`INSERT … ON CONFLICT DO NOTHING`, safe under concurrency).
   * @returns true when a row was inserted
   */
  async insertUnlessQueued(manager: EntityManager, businessId: string, prospect: NewProspect): Promise<boolean> {
    const inserted: unknown[] = await manager.query(
      `INSERT INTO prospects (business_id, referring_member_id, name, email, email_key, source)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (business_id, email_key) DO NOTHING
       RETURNING id`,
      [businessId, prospect.referringMemberId, prospect.name, prospect.email, prospect.emailKey, prospect.source],
    );
    return inserted.length > 0;
  }

  /** Reads one prospect and locks its row until the transaction ends; null when not in this business. */
  findForUpdate(manager: EntityManager, businessId: string, id: string): Promise<ProspectEntity | null> {
    return manager.getRepository(ProspectEntity).findOne({ where: { businessId, id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Deletes a prospect of this business. @returns false when there was none */
  async delete(manager: EntityManager, businessId: string, id: string): Promise<boolean> {
    const result = await manager.getRepository(ProspectEntity).delete({ businessId, id });
    return (result.affected ?? 0) > 0;
  }

  /** Runs `work` in one transaction; use only the manager it receives. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
