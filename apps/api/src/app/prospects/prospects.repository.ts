import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { pageOfRows } from '../common/page-rows';
import { ProspectEntity } from './prospect.entity';

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

/** The SQL columns of someone who joined through a referral link (a prospect or a flagged join). */
export interface ReferredSqlRow {
  id: string;
  name: string;
  email: string;
  referring_member_id: string;
  referring_member_name: string;
}

/** The camel-case fields of a {@link ReferredSqlRow}. */
export function referredFields(row: ReferredSqlRow) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    referringMemberId: row.referring_member_id,
    referringMemberName: row.referring_member_name,
  };
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

/**
 * The owner's way to the `prospects` table (a referral join queues prospects in its one statement,
 * `ReferralLinksRepository.join`). TENANCY: every method takes the business id and every
 * statement filters on it. Methods that change data take the transaction's EntityManager.
 */
@Injectable()
export class ProspectsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One page of the business's prospects (oldest first) and their number, in ONE statement. */
  async findPage(businessId: string, query: { offset: number; limit: number }): Promise<{ rows: ProspectSummary[]; total: number }> {
    const rows: ProspectSqlRow[] = await this.dataSource.query(
      `SELECT p.id, p.name, p.email, p.referring_member_id, m.name AS referring_member_name, p.source, p.created_at,
         (SELECT count(*)::int FROM prospects WHERE business_id = $1) AS total
       FROM prospects p
       JOIN members m ON m.id = p.referring_member_id AND m.business_id = $1
       WHERE p.business_id = $1
       ORDER BY p.created_at, p.id
       LIMIT $2 OFFSET $3`,
      [businessId, query.limit, query.offset],
    );
    const countAll = async () => {
      const [count] = (await this.dataSource.query(`SELECT count(*)::int AS total FROM prospects WHERE business_id = $1`, [
        businessId,
      ])) as { total: number }[];
      return count?.total ?? 0;
    };
    return pageOfRows(rows, query.offset, countAll, (row) => ({
      ...referredFields(row),
      source: row.source,
      createdAt: row.created_at,
    }));
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
