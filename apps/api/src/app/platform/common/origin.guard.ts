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
 * `Origin` header must come from Grove's own origin or from ALLOWED_ORIGINS. Grove's own origin
 * is PUBLIC_ORIGIN (required in production); only outside production is the origin the request
 * names itself (protocol + host as Express reads them: X-Forwarded-Proto / X-Forwarded-Host
 * behind a trusted proxy) also accepted, for a dev server reached as 127.0.0.1 or through a
 * preview proxy (issue 31: the Host a client sends never decides what is "own" in production).
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
    if (origin === this.config.publicOrigin || this.config.allowedOrigins.includes(origin))
      return true;
    if (this.config.nodeEnv !== 'production' && origin === `${request.protocol}://${request.host}`)
      return true;
    throw new ForbiddenException(ORIGIN_NOT_ALLOWED);
  }
}
