import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { StaffRole } from '@grove/contracts';

/**
 * Who is calling, as proven by the access token (or, on login, by the password). `businessId` is
 * the ONLY source of tenancy: every business-owned query is scoped by it (docs/architecture.md#database).
 */
export interface AuthUser {
  userId: string;
  businessId: string;
  /** The `sessions` row behind the access token (absent right after password login). */
  sessionId?: string;
  /**
   * The user's role in the business as the database has it now (set by `JwtAuthGuard` on every
   * signed-in request; absent right after password login). `RoleGuard` checks it against the
   * role table (docs/product.md#staff-accounts).
   */
  role?: StaffRole;
  /**
   * The user's business requires a second factor they have not set up (set by `JwtAuthGuard`):
   * `SecondFactorGate` then refuses every route but those that set one up
   * (docs/product.md#second-factor).
   */
  secondFactorMissing?: true;
}

/** What a verified access token names: its user, business and session. */
export type TokenUser = Required<Pick<AuthUser, 'userId' | 'businessId' | 'sessionId'>>;

/** Injects the request's `AuthUser` (set by passport). Only use it on routes behind a guard. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthUser => {
    const request = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    if (!request.user) throw new Error('CurrentUser used on a route without an authenticated user');
    return request.user;
  },
);
