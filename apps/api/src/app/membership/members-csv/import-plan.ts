import {
  MEMBER_CSV_MESSAGES,
  MESSAGES,
  REFERRED_BY_MESSAGES,
  centsToDollarText,
  dollarsToCents,
  emailKey,
  isValidEmail,
  parseMoneyToCents,
  referredByWaitsMessage,
  validateMemberForm,
  validateReferredBy,
  type MemberImportCounts,
  type MemberImportOutcome,
  type MemberImportRowResult,
  type MemberImportSettings,
  type IntegrationName,
} from '@grove/contracts';
import type { NewMember } from '../members/members.repository';

/** A member of the business as the import compares it (money in cents). */
export interface ExistingMember extends NewMember {
  id: string;
  /**
   * The integration that manages the member (never overwritten by an import): Mindbody, or Stripe
   * for a member billed on the business's Stripe (issue 32); null for a member kept in Grove.
   */
  managedBy: IntegrationName | null;
  /** Who referred them as typed when it matched no member (waits in Referrals to match), or null. */
  referredByNote: string | null;
}

/** A member row the import writes: an insert ('add') or a change ('update'). Money in cents. */
export type PlannedMember = Omit<NewMember, 'referredById'>;

/** A referrer to set: the member (by email key) becomes a branch of the referrer (by email key). */
export interface PlannedReferral {
  emailKey: string;
  referrerEmailKey: string;
  /** The member's referrer before the import (id), null for a new member or one without. */
  previousReferrerId: string | null;
}

/**
 * A "referred by" name of no member (or of several) kept as typed on a member without a referrer:
 * it waits in Referrals to match (issue 33 item 4, docs/product.md#referrals-to-match).
 */
export interface PlannedNote {
  emailKey: string;
  note: string;
}

/** A member change the import writes, with why its price may move (null: name or email only). */
export interface PlannedUpdate extends PlannedMember {
  /** The member's id. */
  id: string;
  priceReason: 'membership_price_changed' | 'discount_changed' | null;
}

/** What an import of a file would do; `rows` is the dry run, the rest is what gets written. */
export interface ImportPlan {
  rows: MemberImportRowResult[];
  counts: MemberImportCounts;
  adds: PlannedMember[];
  updates: PlannedUpdate[];
  /** Referrers to set on added or updated members (only where they change). */
  referrals: PlannedReferral[];
  /** Referred-by notes to keep on added or updated members without a referrer (where they change). */
  notes: PlannedNote[];
}

interface WorkingRow {
  result: MemberImportRowResult;
  member: PlannedMember | null;
  referrerKey: string | null;
  /** The referrer cell when it holds a name (resolved by `resolveReferrerNames`). */
  referrerName: string | null;
  /** The name, kept as typed, when it names no member or several (waits in Referrals to match). */
  referrerNote: string | null;
  /** Set with `referrerNote`: several members have the name. */
  referrerNoteSeveral: boolean;
  existing: ExistingMember | undefined;
}

const cell = (row: readonly string[], column: number | null | undefined): string =>
  column === null || column === undefined ? '' : (row[column] ?? '').trim();

/**
 * An amount cell as the add-member form's rule reads it: an amount `parseMoneyToCents` can read
 * becomes plain dollars ("$1,059.00" → "1059.00"); anything else stays as typed, for the form's
 * message.
 */
function amountText(text: string, locale: string | undefined): string {
  const cents = parseMoneyToCents(text, locale ?? undefined);
  return cents === null ? text : centsToDollarText(cents);
}

/**
 * A name as the referrer match compares it: trimmed, inner spaces collapsed, Unicode NFC, lower
 * case, ’ read as '. "siobhán  o’brien" and "Siobhán O'Brien" are the same name.
 */
export function nameKey(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ').replace(/’/g, "'").toLowerCase();
}

/** The first line of data is line 2 (the header is line 1). */
const FIRST_DATA_LINE = 2;

/**
 * Decides each row of a CSV file against the business's members, writing nothing
 * (docs/product.md#validation: the add-member form's rules and texts, row by row;
 * docs/product.md#members-csv: how the cells are read):
 * - the name is the full-name column, or the first and last name columns joined by a space;
 *   amounts are read by `parseMoneyToCents` in `settings.locale` ("$1,059.00", "59,00 €"); the
 *   discount is the discount column or `settings.discountForEveryRow`;
 * - the referred-by cell holds an email (a cell with '@': matched by email key) or a name (matched
 *   case-insensitively, `nameKey`, to the members of the business and the good rows of the file,
 *   with the names the file gives them; the row itself aside): a name of no one, or of several
 *   members, is kept as typed on a member without a referrer and waits in Referrals to match
 *   (issue 33 item 4: the row is imported, with `referredByWaitsMessage`); an email of no member is
 *   an error;
 * - a row breaking the form's rules ('Not a valid name', 'Not a valid email address', 'Not a valid
 *   amount', 'Not a valid discount price'), repeating an earlier row's email key, or naming a
 *   referrer that is not a valid email, not a member of the business nor a good row of the file,
 *   ambiguous, managed by Mindbody or billed on Stripe, itself, or one of its own branches (a loop)
 *   is an 'error' (`MEMBER_CSV_MESSAGES.referrerManaged` / `referrerStripe`);
 * - a row whose email key is a member managed by Mindbody, or billed on the business's Stripe
 *   (issue 32), is 'skipped' with the hand edit's 409 text ('This member is managed by Mindbody…' /
 *   '…by Stripe…'): those members are never overwritten, as they are never edited by hand;
 * - a row whose email key is a hand-added member is 'update' when name, email, price, discount or
 *   (when given) referrer differ, else 'unchanged'; any other row is an 'add'.
 * An empty referrer cell leaves an existing member's referrer as it is.
 *
 * @param rows the file's data rows (header excluded), cells as parsed
 * @param settings which column feeds which field (required fields mapped, a name from one
 *   full-name column or first/last columns, a discount column or one for every row: checked by the
 *   caller), and the amounts' locale
 * @param existing every member of the business
 * @param lines the file line of each row (default: the row's index + 2, after the header)
 */
export function planImport(
  rows: readonly (readonly string[])[],
  settings: MemberImportSettings,
  existing: readonly ExistingMember[],
  lines: readonly number[] = [],
): ImportPlan {
  const { mapping } = settings;
  const locale = settings.locale ?? undefined;
  const byKey = new Map(existing.map((member) => [member.emailKey, member]));
  const keyById = new Map(existing.map((member) => [member.id, member.emailKey]));
  const firstRowByKey = new Map<string, WorkingRow>();
  const fixedDiscount = settings.discountForEveryRow?.trim() ?? '';

  const working: WorkingRow[] = rows.map((row, index) => {
    const fullName =
      mapping.memberName !== null && mapping.memberName !== undefined
        ? cell(row, mapping.memberName)
        : [cell(row, mapping.firstName), cell(row, mapping.lastName)].filter(Boolean).join(' ');
    const input = {
      memberName: fullName,
      memberEmail: cell(row, mapping.memberEmail),
      membershipPrice: amountText(cell(row, mapping.membershipPrice), locale),
      discount: amountText(
        mapping.discount === null || mapping.discount === undefined
          ? fixedDiscount
          : cell(row, mapping.discount),
        locale,
      ),
    };
    const referredBy = cell(row, mapping.referredBy);
    const byEmail = referredBy.includes('@');
    const messages = Object.values(validateMemberForm(input));
    if (byEmail && !isValidEmail(referredBy)) messages.push(MEMBER_CSV_MESSAGES.referrerInvalid);
    const key = isValidEmail(input.memberEmail) ? emailKey(input.memberEmail) : null;
    const result: MemberImportRowResult = {
      line: lines[index] ?? index + FIRST_DATA_LINE,
      memberName: input.memberName,
      memberEmail: input.memberEmail,
      outcome: 'add',
      messages,
    };
    const rowState: WorkingRow = {
      result,
      member: null,
      referrerKey: byEmail && isValidEmail(referredBy) ? emailKey(referredBy) : null,
      referrerName: referredBy && !byEmail ? referredBy : null,
      referrerNote: null,
      referrerNoteSeveral: false,
      existing: key === null ? undefined : byKey.get(key),
    };
    if (key !== null) {
      if (firstRowByKey.has(key)) messages.push(MEMBER_CSV_MESSAGES.duplicateRow);
      else firstRowByKey.set(key, rowState);
    }
    if (messages.length > 0) {
      result.outcome = 'error';
      return rowState;
    }
    rowState.member = {
      name: input.memberName,
      email: input.memberEmail,
      emailKey: key as string,
      membershipPriceCents: dollarsToCents(input.membershipPrice) as number,
      discountCents: dollarsToCents(input.discount) as number,
    };
    const managedBy = rowState.existing?.managedBy;
    if (managedBy) {
      result.outcome = 'skipped';
      result.messages.push(
        managedBy === 'Stripe' ? MESSAGES.stripeMemberLocked : MESSAGES.managedMemberLocked,
      );
    }
    return rowState;
  });

  resolveReferrerNames(working, existing);
  resolveReferrers(working, byKey, keyById, firstRowByKey);

  const plan: ImportPlan = {
    rows: working.map((row) => row.result),
    counts: { add: 0, update: 0, unchanged: 0, skipped: 0, error: 0 },
    adds: [],
    updates: [],
    referrals: [],
    notes: [],
  };
  for (const row of working) {
    const { member, existing, result } = row;
    if (result.outcome === 'add' || result.outcome === 'update') {
      if (member === null) throw new Error('a good row without its member');
      const referrerChanges =
        row.referrerKey !== null &&
        (existing === undefined || keyById.get(existing.referredById ?? '') !== row.referrerKey);
      // A note waits only for a member without a referrer; one with a referrer keeps it.
      const waits = row.referrerNote !== null && !existing?.referredById;
      const noteChanges = waits && existing?.referredByNote !== row.referrerNote;
      if (waits) {
        result.messages.push(
          referredByWaitsMessage(row.referrerNote as string, row.referrerNoteSeveral),
        );
        if (noteChanges)
          plan.notes.push({ emailKey: member.emailKey, note: row.referrerNote as string });
      }
      if (existing === undefined) plan.adds.push(member);
      else if (sameValues(existing, member))
        result.outcome = referrerChanges || noteChanges ? 'update' : 'unchanged';
      else {
        result.outcome = 'update';
        plan.updates.push({
          ...member,
          id: existing.id,
          priceReason: priceReason(existing, member),
        });
      }
      if (referrerChanges && row.referrerKey !== null)
        plan.referrals.push({
          emailKey: member.emailKey,
          referrerEmailKey: row.referrerKey,
          previousReferrerId: existing?.referredById ?? null,
        });
    }
    plan.counts[result.outcome] += 1;
  }
  return plan;
}

/** True when the member already has exactly these values. */
function sameValues(existing: ExistingMember, member: PlannedMember): boolean {
  return (
    existing.name === member.name &&
    existing.email === member.email &&
    existing.membershipPriceCents === member.membershipPriceCents &&
    existing.discountCents === member.discountCents
  );
}

function priceReason(
  existing: ExistingMember,
  member: PlannedMember,
): PlannedUpdate['priceReason'] {
  if (existing.membershipPriceCents !== member.membershipPriceCents)
    return 'membership_price_changed';
  if (existing.discountCents !== member.discountCents) return 'discount_changed';
  return null;
}

const isGood = (outcome: MemberImportOutcome): boolean => outcome === 'add' || outcome === 'update';

/**
 * Turns each referrer name into the email key of the one member it names: the business's members
 * under the names they will have (a good row of the file renames its member) and the file's new
 * good rows, the row itself aside. Only the row itself: 'A member cannot be their own branch' (an
 * error). No one, or several: the name is kept as typed (`referrerNote`, waiting in Referrals to
 * match), or the row is an error when it is not a note Referrals to match takes (plain text, at
 * most 100 characters: `validateReferredBy`).
 */
function resolveReferrerNames(working: WorkingRow[], existing: readonly ExistingMember[]): void {
  if (!working.some((row) => row.referrerName !== null)) return;
  const nameOf = new Map(existing.map((member) => [member.emailKey, member.name]));
  // Good rows so far (an earlier row of the same email is already an error; a managed member
  // keeps its name).
  for (const row of working) {
    if (row.result.outcome === 'add' && row.member !== null)
      nameOf.set(row.member.emailKey, row.member.name);
  }
  const keysByName = new Map<string, string[]>();
  for (const [key, name] of nameOf) {
    const named = nameKey(name);
    keysByName.set(named, [...(keysByName.get(named) ?? []), key]);
  }
  for (const row of working) {
    if (row.referrerName === null || row.result.outcome !== 'add' || row.member === null) continue;
    const self = row.member.emailKey;
    const named = keysByName.get(nameKey(row.referrerName)) ?? [];
    const others = named.filter((key) => key !== self);
    let problem: string | null = null;
    if (others.length === 1) row.referrerKey = others[0] as string;
    else if (others.length === 0 && named.length > 0) problem = MESSAGES.selfBranch;
    else if (Object.keys(validateReferredBy({ referredByNote: row.referrerName })).length > 0)
      problem = REFERRED_BY_MESSAGES.noteInvalid;
    else {
      row.referrerNote = row.referrerName.trim();
      row.referrerNoteSeveral = others.length > 1;
    }
    if (problem !== null) {
      row.result.outcome = 'error';
      row.result.messages.push(problem);
    }
  }
}

/**
 * Checks every good row's referrer until nothing changes (a row that fails can take the rows that
 * name it as their referrer with it): the referrer must be a hand-added member of the business or
 * a good row of the file, not the row itself, and the new referral must not close a loop.
 */
function resolveReferrers(
  working: WorkingRow[],
  byKey: ReadonlyMap<string, ExistingMember>,
  keyById: ReadonlyMap<string, string>,
  firstRowByKey: ReadonlyMap<string, WorkingRow>,
): void {
  const fail = (row: WorkingRow, message: string): void => {
    row.result.outcome = 'error';
    row.result.messages.push(message);
  };
  for (let changed = true; changed;) {
    changed = false;
    // The referrer of each member once the good rows are written.
    const parent = new Map<string, string>();
    for (const member of byKey.values()) {
      const parentKey = member.referredById ? keyById.get(member.referredById) : undefined;
      if (parentKey !== undefined) parent.set(member.emailKey, parentKey);
    }
    for (const row of working) {
      if (isGood(row.result.outcome) && row.member && row.referrerKey !== null)
        parent.set(row.member.emailKey, row.referrerKey);
    }
    for (const row of working) {
      if (!isGood(row.result.outcome) || row.member === null || row.referrerKey === null) continue;
      const problem = referrerProblem(
        row.member.emailKey,
        row.referrerKey,
        byKey,
        firstRowByKey,
        parent,
      );
      if (problem !== null) {
        fail(row, problem);
        parent.delete(row.member.emailKey);
        changed = true;
      }
    }
  }
}

function referrerProblem(
  key: string,
  referrerKey: string,
  byKey: ReadonlyMap<string, ExistingMember>,
  firstRowByKey: ReadonlyMap<string, WorkingRow>,
  parent: ReadonlyMap<string, string>,
): string | null {
  if (referrerKey === key) return MESSAGES.selfBranch;
  const member = byKey.get(referrerKey);
  if (member?.managedBy === 'Mindbody') return MEMBER_CSV_MESSAGES.referrerManaged;
  if (member?.managedBy === 'Stripe') return MEMBER_CSV_MESSAGES.referrerStripe;
  if (member === undefined) {
    const fileRow = firstRowByKey.get(referrerKey);
    if (fileRow === undefined || !isGood(fileRow.result.outcome))
      return MEMBER_CSV_MESSAGES.referrerUnknown;
  }
  // Walk up from the referrer: reaching this member again means a loop.
  const seen = new Set<string>();
  for (let at: string | undefined = referrerKey; at !== undefined; at = parent.get(at)) {
    if (at === key) return MEMBER_CSV_MESSAGES.referrerCycle;
    if (seen.has(at)) break;
    seen.add(at);
  }
  return null;
}
