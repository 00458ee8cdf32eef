import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify';
import {
  AUDIT_CSV_HEADER,
  AUDIT_CSV_MAX_ROWS,
  AUDIT_KIND_LABELS,
  AUDIT_MESSAGES,
  isAuditDay,
  neutraliseCsvRow,
  type AuditEntry,
  type AuditLogPage,
  type AuditValue,
} from '@grove/contracts';
import { DEFAULT_PAGE_SIZE } from '../common/page-query.dto';
import type { BusinessScope } from '../database/business-scope';
import type { AuditFilterQueryDto, AuditLogQueryDto } from './dto/audit-log-query.dto';
import { AuditPeriodInvalidException } from './audit.exceptions';
import { AuditLog } from './audit-log';
import { AuditRepository, type AuditFilter, type AuditPosition } from './audit.repository';

/** Entries the CSV download reads per statement. */
const CSV_BATCH = 1_000;
const DAY_MS = 86_400_000;

/** A before or after as one CSV cell: `key: value; key: value`. */
function valueCell(value: AuditValue | null): string {
  if (!value) return '';
  return Object.entries(value)
    .map(([key, item]) => `${key}: ${item === null ? '—' : String(item)}`)
    .join('; ');
}

/**
 * Reading the audit log (docs/product.md#audit-log): pages, the CSV download, the authors for the
 * filter, and the business's retention. Writing is `AuditLog.record`'s.
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly repository: AuditRepository,
    private readonly audit: AuditLog,
  ) {}

  /**
   * One page of the log, newest first.
   * @throws AuditPeriodInvalidException 400 a day that does not exist, or `to` before `from`
   */
  async page(scope: BusinessScope, query: AuditLogQueryDto): Promise<AuditLogPage> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const { rows, total } = await this.repository.page(
      scope,
      this.filterOf(query),
      (page - 1) * pageSize,
      pageSize,
    );
    return { items: rows, total, page, pageSize };
  }

  /**
   * The log as CSV, newest first, at most `AUDIT_CSV_MAX_ROWS` entries: `AUDIT_CSV_HEADER` then one
   * row per entry (time ISO 8601 UTC, author, kind's label, member, before, after; formula cells
   * neutralised). Streamed: read `CSV_BATCH` entries at a time as csv-stringify asks.
   * @throws AuditPeriodInvalidException 400 (before streaming starts)
   */
  csv(scope: BusinessScope, query: AuditFilterQueryDto): Readable {
    const filter = this.filterOf(query);
    const repository = this.repository;
    async function* records(): AsyncGenerator<(string | number)[]> {
      let after: AuditPosition | null = null;
      let written = 0;
      while (written < AUDIT_CSV_MAX_ROWS) {
        const batch = await repository.batch(
          scope,
          filter,
          after,
          Math.min(CSV_BATCH, AUDIT_CSV_MAX_ROWS - written),
        );
        for (const entry of batch) yield csvRecord(entry);
        written += batch.length;
        if (batch.length < CSV_BATCH) return;
        after = batch[batch.length - 1]?.position ?? null;
      }
    }
    const csv = stringify({ bom: true, header: true, columns: [...AUDIT_CSV_HEADER] });
    const source = Readable.from(records());
    source.on('error', (error) => csv.destroy(error));
    return source.pipe(csv);
  }

  /** Everyone who wrote in the business's log, for the person filter. */
  authors(scope: BusinessScope): Promise<{ id: string; name: string }[]> {
    return this.repository.authors(scope);
  }

  /** How many days the business keeps its log. */
  async retention(scope: BusinessScope): Promise<{ days: number }> {
    return { days: await this.repository.retentionDays(scope) };
  }

  /** Sets the retention (days, 30–3650, validated by the DTO), recorded as a setting change. */
  async setRetention(scope: BusinessScope, days: number): Promise<{ days: number }> {
    await this.repository.transaction(async (manager) => {
      const before = await this.repository.retentionDays(scope);
      await this.repository.setRetentionDays(scope, manager, days);
      if (before !== days)
        await this.audit.record(scope, manager, {
          kind: 'settings.changed',
          before: { setting: 'Activity log retention', days: before },
          after: { setting: 'Activity log retention', days },
        });
    });
    return { days };
  }

  private filterOf(query: AuditFilterQueryDto): AuditFilter {
    if (query.from !== undefined && !isAuditDay(query.from))
      throw new AuditPeriodInvalidException(AUDIT_MESSAGES.dateInvalid);
    if (query.to !== undefined && !isAuditDay(query.to))
      throw new AuditPeriodInvalidException(AUDIT_MESSAGES.dateInvalid);
    const from = query.from ? new Date(`${query.from}T00:00:00Z`) : undefined;
    const to = query.to
      ? new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS)
      : undefined;
    if (from && to && to <= from) throw new AuditPeriodInvalidException();
    return { memberId: query.memberId, author: query.author, kind: query.kind, from, to };
  }
}

function csvRecord(entry: AuditEntry): (string | number)[] {
  return neutraliseCsvRow([
    entry.at,
    entry.authorName,
    AUDIT_KIND_LABELS[entry.kind],
    entry.memberName ?? '',
    valueCell(entry.before),
    valueCell(entry.after),
  ]);
}
