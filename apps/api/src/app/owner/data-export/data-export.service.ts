import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { stringify } from 'csv-stringify';
import { ZipFile } from 'yazl';
import {
  DATA_EXPORT_FAILED_MESSAGE,
  dataExportTooLargeMessage,
  neutraliseCsvCell,
} from '@grove/contracts';
import { AppConfig } from '../../platform/config/app-config';
import { jobScope, type BusinessScope } from '../../platform/database/business-scope';
import { errorMessage } from '../../platform/common/error-message';
import { JobsService } from '../../platform/jobs/jobs.service';
import type { DataExportDto, DataExportListDto } from './dto/data-export.dto';
import {
  DataExportLimitException,
  DataExportNotReadyException,
  DataExportRunningException,
} from './data-export.exceptions';
import {
  DataExportRepository,
  type ExportSnapshot,
  type StoredExport,
} from './data-export.repository';
import { EXPORT_FILES, exportReadme, type ExportFile } from './export-files';

/** The pg-boss queue building export ZIPs (one job per export). */
export const DATA_EXPORT_QUEUE = 'data-export.build';
/** The hourly sweep deleting expired export files. */
const DATA_EXPORT_SWEEP_QUEUE = 'data-export.sweep';
const DATA_EXPORT_SWEEP_CRON = '17 * * * *';
/** Bytes per stored piece of a ZIP (`business_export_chunks.data`). */
export const EXPORT_CHUNK_BYTES = 1024 * 1024;

interface ExportJob {
  businessId: string;
  exportId: string;
}

/** The ZIP grew past DATA_EXPORT_MAX_MB. */
class ExportTooLargeError extends Error {}

/**
 * A CSV cell: text neutralised (`neutraliseCsvCell`), times ISO 8601 UTC, objects as JSON,
 * NULL empty.
 */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return neutraliseCsvCell(JSON.stringify(value));
  return neutraliseCsvCell(String(value));
}

/**
 * Export everything of a business (issue 34 item 6, docs/product.md#data-rights): a ZIP of one
 * CSV per table (`EXPORT_FILES`) and README.txt, built by a pg-boss job from one consistent
 * snapshot, streamed end to end: rows come through a cursor 1,000 at a time, csv-stringify
 * writes them, yazl zips them as they come, and the ZIP is stored in 1 MiB pieces as it grows
 * (nothing holds the whole file). Bounded: DATA_EXPORT_MAX_MB (past it the export fails with a
 * message and its pieces are deleted), kept DATA_EXPORT_EXPIRY_HOURS (an hourly sweep deletes
 * the file), one export queued or running per business, DATA_EXPORT_DAILY_LIMIT started per 24
 * hours. Owners only (the role table).
 */
@Injectable()
export class DataExportService implements OnModuleInit {
  private readonly logger = new Logger(DataExportService.name);

  constructor(
    private readonly repository: DataExportRepository,
    private readonly jobs: JobsService,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<ExportJob>(
      { name: DATA_EXPORT_QUEUE, retryLimit: 0, expireInSeconds: 30 * 60 },
      (data) => this.build(data),
    );
    await this.jobs.register<object>(
      { name: DATA_EXPORT_SWEEP_QUEUE, policy: 'singleton', retryLimit: 1 },
      async () => {
        const swept = await this.repository.deleteExpiredFiles();
        if (swept > 0) this.logger.log(`export sweep: ${swept} expired file(s) deleted`);
      },
    );
    await this.jobs.schedule(DATA_EXPORT_SWEEP_QUEUE, DATA_EXPORT_SWEEP_CRON);
  }

  /**
   * Starts an export of the scope's business.
   * @param requestedBy the owner asking (`users.id`)
   * @returns 202 the queued export
   * @throws DataExportLimitException 429 past DATA_EXPORT_DAILY_LIMIT in 24 hours
   * @throws DataExportRunningException 409 while another export is queued or running
   */
  async start(scope: BusinessScope, requestedBy: string): Promise<DataExportDto> {
    const limit = this.config.dataRights.exportDailyLimit;
    const jobId = randomUUID();
    const id = await this.repository.transaction(async (manager) => {
      if ((await this.repository.countStartedToday(scope, manager)) >= limit)
        throw new DataExportLimitException(limit);
      const created = await this.repository.create(scope, manager, {
        requestedBy,
        jobId,
        totalSteps: EXPORT_FILES.length + 1,
      });
      if (created === null) throw new DataExportRunningException();
      await this.jobs.send<ExportJob>(
        DATA_EXPORT_QUEUE,
        { businessId: scope.businessId, exportId: created },
        { id: jobId, manager },
      );
      return created;
    });
    this.jobs.wake(DATA_EXPORT_QUEUE);
    return this.status(scope, id);
  }

  /**
   * Where an export stands (the progress bar polls this). One still 'queued' or 'running' whose
   * job has ended without finishing (a deploy, a crash) is marked 'failed' here.
   * @throws DataExportNotReadyException 404 when the business has no such export
   */
  async status(scope: BusinessScope, id: string): Promise<DataExportDto> {
    let stored = isUUID(id) ? await this.repository.find(scope, id) : null;
    if (!stored) throw new DataExportNotReadyException();
    if (
      (stored.state === 'queued' || stored.state === 'running') &&
      stored.jobId &&
      !(await this.jobs.isPending(DATA_EXPORT_QUEUE, stored.jobId))
    ) {
      await this.repository.setProgress(scope, id, {
        state: 'failed',
        doneSteps: 0,
        error: DATA_EXPORT_FAILED_MESSAGE,
      });
      stored = (await this.repository.find(scope, id)) as StoredExport;
    }
    return toDto(stored);
  }

  /** The business's latest 5 exports, newest first. */
  async list(scope: BusinessScope): Promise<DataExportListDto> {
    return { exports: (await this.repository.latest(scope, 5)).map(toDto) };
  }

  /**
   * The finished export's ZIP as a byte stream, read back one stored piece at a time.
   * @throws DataExportNotReadyException 404 unknown, not done, or expired
   */
  async download(scope: BusinessScope, id: string): Promise<{ stream: Readable; size: number }> {
    const stored = isUUID(id) ? await this.repository.find(scope, id) : null;
    if (!stored || stored.state !== 'done') throw new DataExportNotReadyException();
    const repository = this.repository;
    async function* pieces(): AsyncGenerator<Buffer> {
      for (let seq = 0; ; seq++) {
        const piece = await repository.chunk(scope, id, seq);
        if (piece === null) return;
        yield piece;
      }
    }
    return { stream: Readable.from(pieces(), { objectMode: false }), size: stored.sizeBytes };
  }

  /**
   * Builds one export (the job's handler; public for tests): README.txt, then each file of
   * `EXPORT_FILES` (an `ifTable` one only when its table exists), progress after each file.
   */
  async build(job: ExportJob): Promise<void> {
    const scope = jobScope(job);
    const maxBytes = this.config.dataRights.exportMaxBytes;
    const snapshot = await this.repository.snapshot(scope);
    try {
      const files: ExportFile[] = [];
      for (const file of EXPORT_FILES)
        if (!file.ifTable || (await snapshot.hasTable(file.ifTable))) files.push(file);
      const totalSteps = files.length + 1;
      await this.repository.setProgress(scope, job.exportId, {
        state: 'running',
        doneSteps: 0,
        totalSteps,
      });
      const zip = new ZipFile();
      const at = new Date().toISOString();
      const name = await this.repository.businessName(scope);
      zip.addBuffer(Buffer.from(exportReadme(name, at, files), 'utf8'), 'README.txt');
      let done = 1;
      for (const file of files) {
        const csv = this.csvOf(snapshot, file, async () => {
          done += 1;
          await this.repository.setProgress(scope, job.exportId, {
            state: 'running',
            doneSteps: done,
            totalSteps,
          });
        });
        zip.addReadStream(csv, file.file);
      }
      zip.end();
      const size = await this.store(scope, job.exportId, zip.outputStream, maxBytes);
      await this.repository.setProgress(scope, job.exportId, {
        state: 'done',
        doneSteps: totalSteps,
        totalSteps,
        sizeBytes: size,
        expiresInSeconds: this.config.dataRights.exportExpirySeconds,
      });
    } catch (error) {
      this.logger.error(`export ${job.exportId} failed: ${errorMessage(error)}`);
      await this.repository.deleteChunks(scope, job.exportId);
      await this.repository.setProgress(scope, job.exportId, {
        state: 'failed',
        doneSteps: 0,
        error:
          error instanceof ExportTooLargeError
            ? dataExportTooLargeMessage(Math.round(maxBytes / 1024 / 1024))
            : DATA_EXPORT_FAILED_MESSAGE,
      });
    } finally {
      await snapshot.close();
    }
  }

  /**
   * One file's CSV (UTF-8 with a byte-order mark), its header the SELECT's column names. Lazy:
   * nothing is read until yazl reads this entry, so the files' cursors run one after the other
   * on the snapshot's one connection.
   */
  private csvOf(
    snapshot: ExportSnapshot,
    file: ExportFile,
    finished: () => Promise<void>,
  ): Readable {
    async function* records(): AsyncGenerator<string[]> {
      let header: string[] | null = null;
      for await (const row of snapshot.rows(file)) {
        if (header === null) {
          header = Object.keys(row);
          yield header;
        }
        yield header.map((column) => cell(row[column]));
      }
      await finished();
    }
    async function* bytes(): AsyncGenerator<Buffer> {
      const csv = stringify({ bom: true });
      const source = Readable.from(records());
      source.on('error', (error) => csv.destroy(error));
      for await (const piece of source.pipe(csv)) yield piece as Buffer;
    }
    return Readable.from(bytes(), { objectMode: false });
  }

  /**
   * Stores the ZIP as it is written, in pieces of `EXPORT_CHUNK_BYTES`.
   * @returns its size, bytes
   * @throws ExportTooLargeError past `maxBytes`
   */
  private async store(
    scope: BusinessScope,
    id: string,
    output: NodeJS.ReadableStream,
    maxBytes: number,
  ): Promise<number> {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let size = 0;
    let seq = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      await this.repository.appendChunk(scope, id, seq++, Buffer.concat(pending));
      pending = [];
      pendingBytes = 0;
    };
    for await (const piece of output as AsyncIterable<Buffer>) {
      size += piece.length;
      if (size > maxBytes) throw new ExportTooLargeError();
      pending.push(piece);
      pendingBytes += piece.length;
      if (pendingBytes >= EXPORT_CHUNK_BYTES) await flush();
    }
    await flush();
    return size;
  }
}

function toDto(stored: StoredExport): DataExportDto {
  return {
    id: stored.id,
    state: stored.state,
    doneSteps: stored.doneSteps,
    totalSteps: stored.totalSteps,
    sizeBytes: stored.sizeBytes,
    error: stored.error,
    createdAt: stored.createdAt.toISOString(),
    expiresAt: stored.state === 'done' && stored.expiresAt ? stored.expiresAt.toISOString() : null,
  };
}
