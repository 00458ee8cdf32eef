import {
  ForbiddenException,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The text of the 403 sent for a cross-origin unsafe request. */
export const ORIGIN_NOT_ALLOWED = 'Origin not allowed';

/**
 * Cross-site request check (docs/architecture.md#request-path): an unsafe request (POST/PUT/PATCH/DELETE) carrying an
 * `Origin` header must come from the API's own origin (protocol + host, as Express reads
 * them: X-Forwarded-Proto / X-Forwarded-Host behind a trusted proxy) or from ALLOWED_ORIGINS.
 * Requests without `Origin` (curl, server-to-server) pass; cookies are SameSite=Lax as well.
 *
 * @throws ForbiddenException 403 'Origin not allowed'
 */
@Injectable()
export class OriginGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (!UNSAFE_METHODS.has(request.method)) return true;
    const origin = request.headers.origin;
    if (!origin) return true;
    const own = `${request.protocol}://${request.host ?? ''}`;
    if (origin === own || this.config.allowedOrigins.includes(origin)) return true;
    throw new ForbiddenException(ORIGIN_NOT_ALLOWED);
  }
}
