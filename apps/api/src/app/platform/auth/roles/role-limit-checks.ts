import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { OWN_NAME_ONLY_MESSAGE } from '@grove/contracts';
import type { AuthUser } from '../../common/auth-user';
import type { RoleLimit } from './role-table';

/**
 * Checks a request against one `RoleLimit`: the message to refuse it with (403), or null when it
 * stays within the limit. Reads only; runs before the route.
 */
export type RoleLimitCheck = (
  request: Request,
  user: Required<Pick<AuthUser, 'businessId' | 'userId'>>,
) => Promise<string | null>;

/** The body fields `own-name-only` lets through. */
const OWN_NAME_FIELDS = new Set(['firstName', 'lastName']);

/**
 * The checks of the role table's limits (`RoleLimit`), registered by the module that owns the
 * data a check reads (membership registers the price ones in its `onModuleInit`), so platform
 * needs no higher area. A limit without a registered check refuses (`RoleGuard`).
 */
@Injectable()
export class RoleLimitChecks {
  private readonly checks = new Map<RoleLimit, RoleLimitCheck>([
    [
      'own-name-only',
      async (request) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        return Object.keys(body).every((field) => OWN_NAME_FIELDS.has(field))
          ? null
          : OWN_NAME_ONLY_MESSAGE;
      },
    ],
  ]);

  /** Registers (or replaces) the check of `limit`. */
  register(limit: RoleLimit, check: RoleLimitCheck): void {
    this.checks.set(limit, check);
  }

  /** The registered check of `limit`, or undefined. */
  get(limit: RoleLimit): RoleLimitCheck | undefined {
    return this.checks.get(limit);
  }
}
