import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { safeError } from '../common/log-safety';

/**
 * TypeORM's log lines through the API's logger (pino, with its redaction) instead of TypeORM's
 * console logger, which prints every failed statement with its parameters (emails, password
 * hashes, messages). A failed statement is one 'warn' line `{ db: SafeError }` (SQLSTATE,
 * constraint and table names, the message; never the parameters) and, at 'debug', its SQL text
 * (placeholders only: values always travel as parameters). Successful statements are not logged.
 */
export class PinoTypeOrmLogger implements TypeOrmLogger {
  private readonly logger = new Logger('TypeORM');

  logQuery(): void {
    // Every statement would be a line; nothing here is worth it.
  }

  logQueryError(error: string | Error, query: string): void {
    this.logger.warn({ db: safeError(error) }, 'statement failed');
    this.logger.debug({ sql: query }, 'failed statement text');
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ ms: time }, 'slow statement');
    this.logger.debug({ sql: query }, 'slow statement text');
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    const text = message instanceof Error ? safeError(message).message : String(message);
    if (level === 'warn') this.logger.warn(text);
    else this.logger.log(text);
  }
}
