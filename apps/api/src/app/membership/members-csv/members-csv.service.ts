import { randomUUID } from 'node:crypto';
import { Readable, pipeline } from 'node:stream';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { stringify } from 'csv-stringify';
import type { EntityManager } from 'typeorm';
import {
  MEMBER_CSV_FIELDS,
  MEMBER_CSV_MESSAGES,
  MEMBER_EXPORT_HEADER,
  MEMBER_FAILED_ROWS_COLUMNS,
  MESSAGES,
  centsToDollarText,
  guessMemberCsvMapping,
  isValidCents,
  missingMemberCsvFields,
  neutraliseCsvCell,
  parseMoneyToCents,
  type MemberCsvMapping,
  type MemberImportSettings,
  referralLinkUrl,
} from '@grove/contracts';
import { AppConfig } from '../../platform/config/app-config';
import type {
  MemberImportDryRunDto,
  MemberImportStatusDto,
  MemberImportUploadDto,
} from './dto/member-import.dto';
import { jobScope, type BusinessScope } from '../../platform/database/business-scope';
import { writeBatches } from '../../platform/database/write-batches';
import { errorMessage } from '../../platform/common/error-message';
import { JobsService } from '../../platform/jobs/jobs.service';
import { LifecycleService, type LifecycleFact } from '../lifecycle/lifecycle.service';
import { toMemberRow } from '../members/member-row';
import { readCsvUpload, type CsvUploadRequest } from './csv-upload';
import { RowPacker } from './packed-rows';
import { planImport, type ExistingMember, type ImportPlan } from './import-plan';
import {
  BadCsvMappingException,
  ImportNotCheckedException,
  ImportNotFoundException,
} from './members-csv.exceptions';
import {
  MembersCsvRepository,
  type ExportMember,
  type StoredImport,
} from './members-csv.repository';
import { MembershipEvents } from '../events/membership-events';
import { MemberDefaultsRepository } from '../member-defaults/member-defaults.repository';
import { AuditLog } from '../../platform/audit/audit-log';
import { BillingGate } from '../../platform/billing/billing-gate';
import { ErasedEmails } from '../erasure/erased-emails';
import { holdBackErased } from './erased-rows';

/** The pg-boss queue of CSV imports (one job per run of an upload). */
export const MEMBERS_CSV_QUEUE = 'csv.import';

/**
 * What the owner reads when an import did not finish (it failed, or its job was stopped by a
 * deploy or lost in a crash): true in every case, as the import writes in one transaction.
 */
export const IMPORT_FAILED_MESSAGE = 'The import failed and nothing was written. Please try again.';

/** How often a running import says it is alive (`member_imports.heartbeat_at`), in seconds. */
export const IMPORT_HEARTBEAT_SECONDS = 5;
/**
 * A 'running' import whose heartbeat is older than this (seconds) was stopped under it (its
 * process killed): the next poll reports it failed (docs/decisions/csv-import-heartbeat.md).
 */
export const IMPORT_STALE_SECONDS = 30;

/** Rows per write statement: set-based, and small enough that the progress bar moves. */
const WRITE_CHUNK = 1_000;
/** Members per export batch (one keyset-paged statement each). */
const EXPORT_BATCH = 1_000;

interface ImportJob {
  businessId: string;
  importId: string;
  /** The member of staff who ran the import (the audit log's author). */
  actorUserId?: string;
}

const chunks = <T>(items: T[]): T[][] => writeBatches(items, WRITE_CHUNK);

/**
 * Members in and out as CSV (issue 14 part 5; docs/product.md#branches, Export and Import on the
 * Branches screen). Every method takes the session's `BusinessScope` (a job's `jobScope`), so an
 * owner reaches only their own business's members and uploads.
 *
 * Import: upload (parsed once, stored) → mapping (guessed, the owner may change it) → dry run
 * (every row's outcome, nothing written) → run (a pg-boss job: the plan is made again inside one
 * transaction, under a per-business lock, and only its good rows are written in set-based
 * statements; progress is polled). Idempotent by email key: a second run of the same file finds
 * every row 'unchanged' and writes nothing. Lifecycle facts (`member_added` source 'csv',
 * `branch_added`/`branch_removed`) and price ledger lines are recorded in the same transaction.
 */
@Injectable()
export class MembersCsvService implements OnModuleInit {
  private readonly logger = new Logger(MembersCsvService.name);

  constructor(
    private readonly repository: MembersCsvRepository,
    private readonly jobs: JobsService,
    private readonly lifecycle: LifecycleService,
    private readonly config: AppConfig,
    private readonly events: MembershipEvents,
    private readonly defaults: MemberDefaultsRepository,
    private readonly billing: BillingGate,
    private readonly audit: AuditLog,
    private readonly erased: ErasedEmails,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<ImportJob>(
      { name: MEMBERS_CSV_QUEUE, retryLimit: 0, expireInSeconds: 15 * 60 },
      (data, job) => this.runJob(data, job.id),
    );
  }

  /**
   * Export: every member of the business as CSV rows (`MEMBER_EXPORT_HEADER` first), streamed in
   * batches of 1,000 (keyset-paged, so memory stays flat for any size). Amounts have two
   * decimals, in the row's 'Currency' (ISO 4217: the business's, or a Stripe-billed member's
   * subscription's, issue 32); 'New price' and 'Status' are the Branches screen's (`toMemberRow`); 'Join date'
   * is YYYY-MM-DD (UTC); a cell a spreadsheet would run as a formula is neutralised
   * (`neutraliseCsvCell`, contracts' one CSV cell rule: OWASP CSV injection); referral link URLs
   * are on PUBLIC_ORIGIN. The file starts with a UTF-8 byte-order mark, so Excel reads "Siobhán"
   * as written (docs/product.md#members-csv).
   * @returns a UTF-8 byte stream of the CSV
   */
  exportCsv(scope: BusinessScope): Readable {
    const origin = this.config.publicOrigin;
    const repository = this.repository;
    async function* records(): AsyncGenerator<string[]> {
      const currency = await repository.businessCurrency(scope);
      let after: ExportMember['position'] | null = null;
      for (;;) {
        const batch = await repository.exportBatch(scope, after, EXPORT_BATCH);
        for (const member of batch) yield exportRecord(member, origin, currency);
        if (batch.length < EXPORT_BATCH) return;
        after = (batch[batch.length - 1] as ExportMember).position;
      }
    }
    const csv = stringify({ bom: true, header: true, columns: [...MEMBER_EXPORT_HEADER] });
    const source = Readable.from(records());
    source.on('error', (error) => csv.destroy(error));
    return source.pipe(csv);
  }

  /**
   * Stores an uploaded CSV file and guesses its mapping.
   * @returns 201 `MemberImportUpload`
   * The file is parsed as it arrives and its rows compressed as they are parsed (`readCsvUpload`,
   * `RowPacker`): the upload never holds the file nor its rows.
   * @throws NotCsvException 415, CsvTooLargeException 413, BadCsvFileException 400 (see `readCsvUpload`)
   */
  async upload(scope: BusinessScope, request: CsvUploadRequest): Promise<MemberImportUploadDto> {
    const packer = new RowPacker();
    let parsed;
    try {
      parsed = await readCsvUpload(request, (cells, line) => packer.add(cells, line));
    } catch (error) {
      packer.discard();
      throw error;
    }
    const importId = await this.repository.createImport(scope, {
      headers: parsed.headers,
      packed: await packer.finish(),
      rowCount: parsed.rowCount,
    });
    return {
      importId,
      headers: parsed.headers,
      rowCount: parsed.rowCount,
      mapping: guessMemberCsvMapping(parsed.headers),
    };
  }

  /**
   * The dry run: what the import would do with each row, with the add-member form's messages
   * (docs/product.md#validation); writes no member. The upload keeps these settings for its
   * failed-rows file (`failedRowsCsv`) until it is run.
   * @throws ImportNotFoundException 404, BadCsvMappingException 400 (see `checkSettings`)
   */
  async dryRun(
    scope: BusinessScope,
    importId: string,
    settings: MemberImportSettings,
  ): Promise<MemberImportDryRunDto> {
    const stored = await this.findImport(scope, importId, true);
    const checked = this.checkSettings(
      stored,
      settings,
      (await this.defaults.get(scope)).discountCents,
    );
    await this.repository.keepDryRunSettings(scope, importId, checked);
    const plan = await this.withoutErased(
      scope,
      planImport(stored.rows, checked, await this.repository.findExisting(scope), stored.lines),
      checked,
    );
    return { counts: plan.counts, rows: plan.rows };
  }

  /**
   * The failed rows of an upload as CSV (docs/product.md#members-csv): the file's own header and
   * cells of every row that is an 'error' with the settings of its last dry run (before the run)
   * or of its run (after: what is still not imported), plus 'Line' (its line in the uploaded file)
   * and 'Reason' (its messages joined by '; '); every row as wide as the header, never wider.
   * UTF-8 with a byte-order mark; every cell neutralised as the export's (`neutraliseCsvCell`).
   * Streamed: each record is built when csv-stringify asks for it, so the reply never holds the
   * whole file as one string (the upload itself is bounded: 5 MB, 10,000 rows, 200 columns).
   * The upload is found and checked before the stream starts, so its errors stay JSON replies.
   * @returns a UTF-8 byte stream of the CSV (at most the upload's 10,000 rows after the header)
   * @throws ImportNotFoundException 404, ImportNotCheckedException 409 before any dry run
   */
  async failedRowsCsv(scope: BusinessScope, importId: string): Promise<Readable> {
    const stored = await this.findImport(scope, importId, true);
    if (stored.settings === null) throw new ImportNotCheckedException();
    const plan = await this.withoutErased(
      scope,
      planImport(
        stored.rows,
        stored.settings,
        await this.repository.findExisting(scope),
        stored.lines,
      ),
      stored.settings,
    );
    // The header's width: a row's cells past it (at most CSV_IMPORT_EXTRA_CELLS, empty ones a
    // spreadsheet left) have no column to be read from, so they are not written back either.
    const width = stored.headers.length;
    const withinHeader = (cells: readonly string[]) =>
      Array.from({ length: width }, (_, column) => cells[column] ?? '');
    function* records(): Generator<string[]> {
      yield [...withinHeader(stored.headers), ...MEMBER_FAILED_ROWS_COLUMNS].map(neutraliseCsvCell);
      for (const [index, result] of plan.rows.entries()) {
        if (result.outcome !== 'error') continue;
        yield [
          ...withinHeader(stored.rows[index] ?? []),
          String(result.line),
          result.messages.join('; '),
        ].map(neutraliseCsvCell);
      }
    }
    return pipeline(Readable.from(records()), stringify({ bom: true }), () => undefined);
  }

  /**
   * Queues the import of the good rows with these settings (a second call while it is queued,
   * running or done queues nothing and answers its status).
   * @returns 202 `MemberImportStatus`
   * @throws ImportNotFoundException 404, BadCsvMappingException 400 (see `checkSettings`)
   * @throws BillingPausedException 402 while Grove is paused for an unpaid bill (docs/product.md#billing)
   */
  async run(
    scope: BusinessScope,
    importId: string,
    settings: MemberImportSettings,
  ): Promise<MemberImportStatusDto> {
    await this.billing.assertOpen(scope);
    const stored = await this.findImport(scope, importId, false);
    const checked = this.checkSettings(
      stored,
      settings,
      (await this.defaults.get(scope)).discountCents,
    );
    // A run stopped under it (a crash) can run again at once, without waiting for a poll.
    await this.reapStopped(scope, stored);
    const jobId = randomUUID();
    const queued = await this.repository.transaction(async (manager) => {
      if (!(await this.repository.markQueued(scope, manager, importId, checked, jobId))) {
        return false;
      }
      const job: ImportJob = {
        businessId: scope.businessId,
        importId,
        ...(scope.actor?.kind === 'staff' ? { actorUserId: scope.actor.userId } : {}),
      };
      await this.jobs.send<ImportJob>(MEMBERS_CSV_QUEUE, job, { id: jobId, manager });
      return true;
    });
    if (queued) this.jobs.wake(MEMBERS_CSV_QUEUE);
    return this.status(scope, importId);
  }

  /**
   * Where an import stands (the progress bar polls this). An import stopped under it is reported
   * 'failed' here (see `reapStopped`), so the owner sees `IMPORT_FAILED_MESSAGE` and can run it
   * again.
   * @throws ImportNotFoundException 404
   */
  async status(scope: BusinessScope, importId: string): Promise<MemberImportStatusDto> {
    const stored = await this.reapStopped(scope, await this.findImport(scope, importId, false));
    return {
      importId: stored.id,
      state: stored.state,
      totalRows: stored.totalRows,
      processedRows: stored.processedRows,
      counts: stored.state === 'done' ? stored.counts : null,
      error: stored.state === 'failed' ? stored.error : null,
    };
  }

  /**
   * Marks a 'queued' or 'running' import 'failed' with `IMPORT_FAILED_MESSAGE` when it was
   * stopped under it, so it can run again: running with a heartbeat older than
   * `IMPORT_STALE_SECONDS` (its process was killed; pg-boss would keep its job 'active' until it
   * expires, 15 minutes), or its job ended without finishing it (stopped by a deploy, expired). Its
   * transaction rolled back with its connection, so nothing was written; a run still alive but
   * silent that long finds itself failed at its end and rolls back (`finishRun`).
   * @returns the import as it is now
   */
  private async reapStopped(scope: BusinessScope, stored: StoredImport): Promise<StoredImport> {
    const { id, state, jobId } = stored;
    if ((state !== 'queued' && state !== 'running') || !jobId) return stored;
    const stopped =
      (state === 'running' &&
        (await this.repository.failStale(
          scope,
          id,
          jobId,
          IMPORT_STALE_SECONDS,
          IMPORT_FAILED_MESSAGE,
        ))) ||
      (!(await this.jobs.isPending(MEMBERS_CSV_QUEUE, jobId)) &&
        (await this.repository.failStopped(scope, id, jobId, IMPORT_FAILED_MESSAGE)));
    return stopped ? this.findImport(scope, id, false) : stored;
  }

  /**
   * Runs one import as job `jobId`: plans again under the business's lock and writes the good
   * rows, all in one transaction that also marks it 'done' (nothing is written if it fails),
   * reporting progress and a heartbeat every `IMPORT_HEARTBEAT_SECONDS` on another connection.
   * Does nothing when the upload is not queued for this job. Public for tests; the API calls it
   * from the job.
   */
  async runJob(job: ImportJob, jobId: string): Promise<void> {
    const scope = jobScope(job);
    const stored = await this.repository.findImport(scope, job.importId, true);
    if (!stored?.settings || !(await this.repository.startRun(scope, stored.id, jobId))) return;
    const settings = stored.settings;
    const total = stored.totalRows;
    const run = { id: stored.id, jobId };
    const heartbeat = setInterval(() => {
      this.repository
        .beat(scope, run.id, run.jobId)
        .catch((error: unknown) =>
          this.logger.warn(`CSV import ${run.id} heartbeat: ${errorMessage(error)}`),
        );
    }, IMPORT_HEARTBEAT_SECONDS * 1000);
    heartbeat.unref();
    try {
      await this.repository.transaction(async (manager) => {
        await this.repository.lockImports(scope, manager);
        const existing = await this.repository.findExisting(scope, manager);
        const plan = await this.withoutErased(
          scope,
          planImport(stored.rows, settings, existing, stored.lines),
          settings,
          manager,
        );
        await this.write(scope, manager, run, plan, existing, total);
        await this.audit.record(scope, manager, {
          kind: 'import.run',
          after: { source: 'CSV', rows: total, ...plan.counts },
        });
        const finished = await this.repository.finishRun(scope, manager, run.id, run.jobId, {
          processedRows: total,
          counts: plan.counts,
        });
        if (!finished) throw new Error('it was reported failed while it ran; rolled back');
      });
    } catch (error) {
      this.logger.error(`CSV import ${run.id} failed: ${errorMessage(error)}`);
      await this.repository.failStopped(scope, run.id, run.jobId, IMPORT_FAILED_MESSAGE);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Writes a plan's good rows (set-based, in chunks) and records what happened. */
  private async write(
    scope: BusinessScope,
    manager: EntityManager,
    run: { id: string; jobId: string },
    plan: ImportPlan,
    existing: ExistingMember[],
    totalRows: number,
  ): Promise<void> {
    const idByKey = new Map(existing.map((member) => [member.emailKey, member.id]));
    // New members get their ids here, so a branch's referrer (an existing member or a new row)
    // goes into its INSERT; referrers are inserted before their branches (`referrersFirst`).
    const referrerKeyOf = new Map(
      plan.referrals.map((referral) => [referral.emailKey, referral.referrerEmailKey]),
    );
    for (const member of plan.adds) idByKey.set(member.emailKey, randomUUID());
    const adds = referrersFirst(plan.adds, referrerKeyOf).map((member) => {
      const referrerKey = referrerKeyOf.get(member.emailKey);
      return {
        ...member,
        id: idByKey.get(member.emailKey) as string,
        referredById: referrerKey === undefined ? null : (idByKey.get(referrerKey) ?? null),
      };
    });
    const addedKeys = new Set(plan.adds.map((member) => member.emailKey));
    const laterReferrals = plan.referrals.filter((referral) => !addedKeys.has(referral.emailKey));
    const work = adds.length + plan.updates.length + laterReferrals.length + plan.notes.length + 1;
    let done = 0;
    const progress = async (units: number): Promise<void> => {
      done += units;
      const processedRows = Math.min(totalRows - 1, Math.floor((totalRows * done) / work));
      await this.repository.beat(scope, run.id, run.jobId, processedRows);
    };
    const added: string[] = [];
    const attached: { memberId: string; referrerId: string }[] = [];
    for (const chunk of chunks(adds)) {
      for (const row of await this.repository.insertMembers(scope, manager, chunk)) {
        added.push(row.id);
        if (row.referredById) attached.push({ memberId: row.id, referrerId: row.referredById });
      }
      await progress(chunk.length);
    }
    const updated: { id: string; emailKey: string }[] = [];
    for (const chunk of chunks(plan.updates)) {
      updated.push(...(await this.repository.updateMembers(scope, manager, chunk)));
      await progress(chunk.length);
    }
    const previous = new Map<string, string | null>();
    const referrals: { memberId: string; referrerId: string }[] = [];
    for (const referral of laterReferrals) {
      const memberId = idByKey.get(referral.emailKey);
      const referrerId = idByKey.get(referral.referrerEmailKey);
      if (memberId === undefined || referrerId === undefined) continue;
      referrals.push({ memberId, referrerId });
      previous.set(memberId, referral.previousReferrerId);
    }
    for (const chunk of chunks(referrals)) {
      attached.push(...(await this.repository.setReferrers(scope, manager, chunk)));
      await progress(chunk.length);
    }
    // Referred-by names of no member wait in Referrals to match (issue 33 item 4).
    const notes = plan.notes.flatMap(({ emailKey, note }) => {
      const memberId = idByKey.get(emailKey);
      return memberId === undefined ? [] : [{ memberId, note }];
    });
    for (const chunk of chunks(notes)) {
      await this.repository.setReferredByNotes(scope, manager, chunk);
      await progress(chunk.length);
    }
    // The automatic-link setting (issue 14 part 4): new members get a link in the same transaction.
    if (added.length > 0)
      await this.events.emit('members.added', { scope, manager, memberIds: added });
    await this.record(scope, manager, run.id, plan, { added, updated, attached, previous });
  }

  /** Lifecycle facts and price ledger lines of a run, in its transaction (idempotent by key). */
  private async record(
    scope: BusinessScope,
    manager: EntityManager,
    importId: string,
    plan: ImportPlan,
    written: {
      added: string[];
      updated: { id: string; emailKey: string }[];
      attached: { memberId: string; referrerId: string }[];
      /** Each attached member's referrer before the import. */
      previous: ReadonlyMap<string, string | null>;
    },
  ): Promise<void> {
    const at = new Date().toISOString();
    const addedIds = new Set(written.added);
    const facts: LifecycleFact[] = written.added.map((memberId) => ({
      kind: 'member_added',
      eventKey: `member_added:${memberId}`,
      memberId,
      source: 'csv',
    }));
    const gaining = new Set<string>();
    const losing = new Set<string>();
    for (const { memberId, referrerId } of written.attached) {
      gaining.add(referrerId);
      facts.push({
        kind: 'branch_added',
        eventKey: addedIds.has(memberId)
          ? `branch_added:${memberId}`
          : `branch_added:${memberId}:${referrerId}:${at}`,
        memberId,
        referrerId,
        source: 'csv',
      });
      const previous = written.previous.get(memberId);
      if (previous) {
        losing.add(previous);
        facts.push({
          kind: 'branch_removed',
          eventKey: `branch_removed:${memberId}:${previous}:${at}`,
          memberId,
          referrerId: previous,
          source: 'csv',
        });
      }
    }
    await this.lifecycle.recordFacts(scope, facts, manager);
    const reasonByKey = new Map(
      plan.updates.map((update) => [update.emailKey, update.priceReason]),
    );
    const byReason = (reason: string) =>
      written.updated
        .filter((row) => reasonByKey.get(row.emailKey) === reason)
        .map((row) => row.id);
    const causes: [string[], Parameters<LifecycleService['recordEffectivePrices']>[2]][] = [
      [written.added, { reason: 'member_added', cause: `csv:${importId}:added` }],
      [
        byReason('membership_price_changed'),
        { reason: 'membership_price_changed', cause: `csv:${importId}:price` },
      ],
      [
        byReason('discount_changed'),
        { reason: 'discount_changed', cause: `csv:${importId}:discount` },
      ],
      [[...gaining], { reason: 'branch_added', cause: `csv:${importId}:branches` }],
      [[...losing], { reason: 'branch_removed', cause: `csv:${importId}:unbranched` }],
    ];
    for (const [ids, cause] of causes) {
      if (ids.length > 0) await this.lifecycle.recordEffectivePrices(scope, ids, cause, manager);
    }
  }

  /**
   * The plan without new members whose email was erased on request, unless the owner ticked
   * "Import erased members too" (`importErased`), docs/product.md#data-rights.
   */
  private async withoutErased(
    scope: BusinessScope,
    plan: ImportPlan,
    settings: MemberImportSettings,
    manager?: EntityManager,
  ): Promise<ImportPlan> {
    if (settings.importErased === true || plan.adds.length === 0) return plan;
    const erased = await this.erased.erasedAmong(
      scope,
      plan.adds.map((member) => member.emailKey),
      manager,
    );
    return holdBackErased(plan, erased);
  }

  private async findImport(
    scope: BusinessScope,
    importId: string,
    withRows: boolean,
  ): Promise<StoredImport> {
    const stored = isUUID(importId)
      ? await this.repository.findImport(scope, importId, withRows)
      : null;
    if (!stored) throw new ImportNotFoundException();
    return stored;
  }

  /**
   * Settings the upload can run with (docs/product.md#members-csv): only known fields, each a
   * column of the file (0-based integer) or null, no column twice; a name from a full-name column
   * or from first and/or last name columns, not both; email and price columns; a discount column or
   * one discount for every row, not both. The discount typed for every row is kept as plain dollars
   * ("$5" → "5.00"); an unknown locale is dropped (en-AU).
   * @throws BadCsvMappingException 400 'Please choose a column for name, email, membership price and
   *   discount', 'Each field needs a column of the file, each column used once', 'Choose a full name
   *   column or first and last name columns, not both', 'Choose a discount column or one discount
   *   for every row, not both', or 'Not a valid discount price' (the discount for every row)
   * @param defaultDiscountCents the business's default discount per referral (cents, null: none):
   *   with no discount column and none typed, it is every row's (docs/product.md#member-defaults)
   */
  private checkSettings(
    stored: StoredImport,
    settings: MemberImportSettings,
    defaultDiscountCents: number | null,
  ): MemberImportSettings {
    const given = (settings.mapping ?? {}) as Record<string, unknown>;
    const columns = stored.headers.length;
    const checked = {} as MemberCsvMapping;
    const used = new Set<number>();
    for (const key of Object.keys(given)) {
      if (!(MEMBER_CSV_FIELDS as readonly string[]).includes(key))
        throw new BadCsvMappingException(MEMBER_CSV_MESSAGES.mappingInvalid);
    }
    for (const field of MEMBER_CSV_FIELDS) {
      const column = given[field] ?? null;
      if (column === null) {
        checked[field] = null;
        continue;
      }
      if (!Number.isInteger(column) || (column as number) < 0 || (column as number) >= columns)
        throw new BadCsvMappingException(MEMBER_CSV_MESSAGES.mappingInvalid);
      if (used.has(column as number))
        throw new BadCsvMappingException(MEMBER_CSV_MESSAGES.mappingInvalid);
      used.add(column as number);
      checked[field] = column as number;
    }
    if (checked.memberName !== null && (checked.firstName !== null || checked.lastName !== null))
      throw new BadCsvMappingException(MEMBER_CSV_MESSAGES.nameTwice);
    const typed = settings.discountForEveryRow?.trim() || null;
    if (typed !== null && checked.discount !== null)
      throw new BadCsvMappingException(MEMBER_CSV_MESSAGES.discountTwice);
    const locale = knownLocale(settings.locale);
    let discountForEveryRow: string | null = null;
    if (typed !== null) {
      const cents = parseMoneyToCents(typed, locale ?? undefined);
      if (!isValidCents(cents)) throw new BadCsvMappingException(MESSAGES.invalidDiscount);
      discountForEveryRow = centsToDollarText(cents);
    } else if (checked.discount === null && defaultDiscountCents !== null) {
      discountForEveryRow = centsToDollarText(defaultDiscountCents);
    }
    if (missingMemberCsvFields(checked, discountForEveryRow).length > 0)
      throw new BadCsvMappingException(MEMBER_CSV_MESSAGES.mappingIncomplete);
    return {
      mapping: checked,
      discountForEveryRow,
      locale,
      ...(settings.importErased === true ? { importErased: true } : {}),
    };
  }
}

/** The canonical form of a BCP 47 locale ('EN-us' → 'en-US'), or null when it is none. */
function knownLocale(locale: string | null | undefined): string | null {
  if (!locale) return null;
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * New members ordered so that every referrer among them comes before its branches (the plan has
 * no loops), so each chunk's INSERT names only referrers already written or in the same statement.
 */
function referrersFirst<T extends { emailKey: string }>(
  adds: T[],
  referrerKeyOf: ReadonlyMap<string, string>,
): T[] {
  const added = new Set(adds.map((member) => member.emailKey));
  const depth = new Map<string, number>();
  const depthOf = (key: string): number => {
    const known = depth.get(key);
    if (known !== undefined) return known;
    // Walk up the new rows' referrers iteratively (chains can be 10,000 rows long).
    const chain: string[] = [];
    let at: string | undefined = key;
    while (at !== undefined && added.has(at) && !depth.has(at) && !chain.includes(at)) {
      chain.push(at);
      at = referrerKeyOf.get(at);
    }
    let base = at !== undefined && depth.has(at) ? (depth.get(at) as number) + 1 : 0;
    for (const member of chain.reverse()) depth.set(member, base++);
    return depth.get(key) as number;
  };
  return adds
    .map((member, index) => ({ member, index, depth: depthOf(member.emailKey) }))
    .sort((a, b) => a.depth - b.depth || a.index - b.index)
    .map(({ member }) => member);
}

/**
 * One export record in `MEMBER_EXPORT_HEADER` order, every cell neutralised.
 * @param businessCurrency the business's ISO 4217 code, the currency of a member's amounts unless
 *   billed on the business's Stripe (then its subscription's, `MemberRow.currency`)
 */
function exportRecord(member: ExportMember, origin: string, businessCurrency: string): string[] {
  const row = toMemberRow(member.summary, []);
  return [
    row.memberName,
    row.memberEmail,
    String(row.branches),
    centsToDollarText(row.membershipPriceCents),
    centsToDollarText(row.discountCents),
    centsToDollarText(row.newPriceCents),
    row.currency ?? businessCurrency,
    member.linkCode ? referralLinkUrl(origin, member.linkCode) : '',
    member.referrerEmail ?? '',
    // 'Billing': who manages the member's bill ('Mindbody', 'Stripe'), empty when kept by hand.
    row.managedByIntegration ?? '',
    row.status,
    member.joinedOn,
  ].map(neutraliseCsvCell);
}
