import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * Who is calling, as proven by the access token (or, on login, by the password). `businessId` is
 * the ONLY source of tenancy: every business-owned query is scoped by it (docs/architecture.md#database).
 */
export interface AuthUser {
  userId: string;
  businessId: string;
  /** The `sessions` row behind the access token (absent right after password login). */
  sessionId?: string;
}

/** Injects the request's `AuthUser` (set by passport). Only use it on routes behind a guard. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthUser => {
    const request = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    if (!request.user) throw new Error('CurrentUser used on a route without an authenticated user');
    return request.user;
  },
);
