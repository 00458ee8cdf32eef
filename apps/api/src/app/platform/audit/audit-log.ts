import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuditValue } from '@grove/contracts';
import type { BusinessScope } from '../database/business-scope';
import { AuditRepository, type AuditWrite } from './audit.repository';

type Scalars = Record<string, string | number | boolean | null | undefined>;

/** Longest text kept in a before or after value (characters); longer text is cut with '…'. */
const TEXT_MAX = 200;

/**
 * `value` fit for the log: strings cut to {@link TEXT_MAX} characters, undefined left out.
 * Callers pass only what a person may read back (names, emails, cents, settings), never a
 * password, token, key or secret.
 */
export function auditValue(
  value: Record<string, string | number | boolean | null | undefined>,
): AuditValue {
  const out: AuditValue = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    out[key] =
      typeof item === 'string' && item.length > TEXT_MAX ? `${item.slice(0, TEXT_MAX - 1)}…` : item;
  }
  return out;
}

/**
 * Only the keys whose values differ between `before` and `after`, as a before → after pair
 * (null when nothing differs: nothing to record).
 */
export function auditChanges(
  before: Record<string, string | number | boolean | null | undefined>,
  after: Record<string, string | number | boolean | null | undefined>,
): { before: AuditValue; after: AuditValue } | null {
  const changed = Object.keys(after).filter(
    (key) => after[key] !== undefined && after[key] !== before[key],
  );
  if (changed.length === 0) return null;
  const pick = (source: typeof before) =>
    auditValue(Object.fromEntries(changed.map((key) => [key, source[key] ?? null])));
  return { before: pick(before), after: pick(after) };
}

/**
 * The 'settings.changed' entry of a setting that went from `before` to `after`: the setting's name
 * and only the fields that moved (null when none did: nothing to record).
 * @param setting how the setting is named to people ("Mindbody discounts")
 */
export function settingChange(setting: string, before: Scalars, after: Scalars): AuditWrite | null {
  const changes = auditChanges(before, after);
  return changes
    ? {
        kind: 'settings.changed',
        before: { setting, ...changes.before },
        after: { setting, ...changes.after },
      }
    : null;
}

/**
 * Records changes in the audit log (issue 34 item 2, docs/product.md#audit-log): the one way a
 * module writes an entry. Always INSIDE the caller's transaction (its `EntityManager`), so an
 * entry exists exactly when its change was committed. The author is the scope's actor
 * (`sessionScope`: the signed-in member of staff, with their name at the time; `webhookScope`:
 * Mindbody; `stripeScope`: Stripe; otherwise Grove, `system`); `actingAs` names another.
 */
@Injectable()
export class AuditLog {
  constructor(private readonly repository: AuditRepository) {}

  /** Records one entry (see {@link AuditWrite}) in `manager`'s transaction. */
  record(scope: BusinessScope, manager: EntityManager, entry: AuditWrite): Promise<void> {
    return this.repository.insert(scope, manager, [entry]);
  }

  /**
   * Changes one of the business's settings and records it ('settings.changed', only the fields
   * that moved, before → after) in ONE transaction.
   * @param setting how the setting is named to people ("Defaults for new members")
   * @param read the setting as it is, in the transaction (before the write)
   * @param write saves the new value with the transaction's manager and returns it as stored
   * @returns what `write` returned
   */
  changeSetting<T extends object>(
    scope: BusinessScope,
    setting: string,
    read: (manager: EntityManager) => Promise<T>,
    write: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    return this.repository.transaction(async (manager) => {
      const before = await read(manager);
      const after = await write(manager);
      const entry = settingChange(setting, before as Scalars, after as Scalars);
      if (entry) await this.record(scope, manager, entry);
      return after;
    });
  }

  /** Records several entries in one statement in `manager`'s transaction. */
  recordMany(
    scope: BusinessScope,
    manager: EntityManager,
    entries: readonly AuditWrite[],
  ): Promise<void> {
    return this.repository.insert(scope, manager, entries);
  }
}
