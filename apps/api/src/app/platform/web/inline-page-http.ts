import {
  ForbiddenException,
  Injectable,
  type ArgumentsHost,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiExceptionFilter } from '../common/api-exception.filter';
import { ORIGIN_NOT_ALLOWED } from '../common/origin.guard';

/**
 * A form field's value as sent (`application/x-www-form-urlencoded` or JSON), or '' when absent
 * or not text (a repeated or bracketed field arrives as an array or an object).
 */
export const formText = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Refuses the POSTs of a page the API renders (the join page, the member page) from another site.
 * OWASP CSRF cheat sheet, "Fetch Metadata headers": browsers that send no Origin still say where a
 * request comes from (the global OriginGuard checks Origin). GET and HEAD pass: they read only.
 * @throws ForbiddenException 403 for `Sec-Fetch-Site: cross-site`
 */
@Injectable()
export class NotCrossSiteGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (request.method === 'GET' || request.method === 'HEAD') return true;
    if (request.headers['sec-fetch-site'] === 'cross-site')
      throw new ForbiddenException(ORIGIN_NOT_ALLOWED);
    return true;
  }
}

/**
 * The errors of a page the API renders (the join page, the member page) as that page, not JSON:
 * the status `ApiExceptionFilter` would answer (and logs), with the page `render` draws for the
 * reply's message. A subclass is a `@Catch()` filter of one page's controller.
 */
export abstract class InlinePageExceptionFilter extends ApiExceptionFilter {
  /** The page's HTML for an error whose reply message is `message` (its headers set on `response`). */
  protected abstract render(message: string, response: Response): string;

  override catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const { statusCode, message } = this.reply(exception, http.getRequest<Request>(), response);
    if (response.headersSent) return;
    response.status(statusCode).send(this.render(message, response));
  }
}
