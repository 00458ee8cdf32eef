import {
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ApiErrorBody } from '@grove/contracts';
import { databaseFaultReply } from '../database/database-faults';
import { badInputReply } from './bad-input-errors';
import { GroveException } from './grove.exception';
import { redactUrl } from './log-safety';
import { requestIdOf } from './request-id';

/** The HTTP status of a module exception: its own `status` (500 for a type that sets none). */
export function statusOf(exception: GroveException): HttpStatus {
  return exception.status;
}

/**
 * Global filter: every error reply has the `ApiErrorBody` shape `{ statusCode, message,
 * fieldErrors? }`. Module exceptions (`GroveException`) answer with their own `status` and body
 * (`toResponse`); Nest's HttpExceptions keep their status; database faults by `databaseFaultReply` (unreachable or unanswering database:
 * 503 with `Retry-After`, logged as a warning; deadlock / serialization failure: 409 'Please try
 * again'); a body the parser refused or a PostgreSQL data exception is a 4xx (`badInputReply`);
 * anything else is logged and answered 500 without details.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const body = this.reply(exception, http.getRequest<Request>(), response);
    if (!response.headersSent) response.status(body.statusCode).json(body);
  }

  /**
   * The reply body for `exception` (status and message, as documented on the class); logs a 500
   * or a database fault and sets `Retry-After` when the reply carries one. For a subclass that
   * answers in another format (the join page's HTML).
   */
  protected reply(exception: unknown, request: Request, response: Response): ApiErrorBody {
    const fault = databaseFaultReply(exception);
    const body: ApiErrorBody = fault
      ? { statusCode: fault.statusCode, message: fault.message }
      : this.toBody(exception);
    if (body.statusCode === HttpStatus.INTERNAL_SERVER_ERROR)
      this.logFailure(exception, request, 'error');
    if (fault?.retryAfterSeconds) this.logFailure(exception, request, 'warn');
    if (fault?.retryAfterSeconds && !response.headersSent)
      response.setHeader('Retry-After', String(fault.retryAfterSeconds));
    return body;
  }

  private toBody(exception: unknown): ApiErrorBody {
    if (exception instanceof GroveException) return exception.toResponse();
    if (exception instanceof HttpException) {
      const statusCode = exception.getStatus();
      const reply = exception.getResponse();
      if (typeof reply === 'string') return { statusCode, message: reply };
      const { message, fieldErrors } = reply as {
        message?: unknown;
        fieldErrors?: Record<string, string>;
      };
      const text = Array.isArray(message)
        ? String(message[0])
        : typeof message === 'string'
          ? message
          : exception.message;
      return fieldErrors
        ? { statusCode, message: text, fieldErrors }
        : { statusCode, message: text };
    }
    return (
      badInputReply(exception) ?? {
        statusCode: HttpStatus.INTERNAL_SERVER_ERROR,
        message: 'Something went wrong',
      }
    );
  }

  /**
   * Logs a 500 (or a 503 database fault, as a warning) with the request that met it (method, path
   * without search terms, its id: the one answered in X-Request-Id, `requestIds`): at LOG_LEVEL 'warn' and above no request
   * logger is bound (see `logsRequests`), so the line says it itself. The error goes through the
   * `safeError` serializer: never a statement's parameters.
   */
  private logFailure(exception: unknown, request: Request, level: 'error' | 'warn'): void {
    this.logger[level]({
      err: exception instanceof Error ? exception : new Error(String(exception)),
      request: {
        method: request.method,
        url: redactUrl(request.originalUrl),
        id: requestIdOf(request),
      },
    });
  }
}
