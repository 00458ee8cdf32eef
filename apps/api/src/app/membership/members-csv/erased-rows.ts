import { emailKey, ERASED_EMAIL_ROW_MESSAGE } from '@grove/contracts';
import type { ImportPlan } from './import-plan';

/**
 * Holds back the plan's new members whose email was erased on request (docs/product.md#data-rights):
 * each such row becomes an 'error' with `ERASED_EMAIL_ROW_MESSAGE` and is not added, nor made a
 * branch, nor left waiting in Referrals to match; the counts follow. The owner imports them only by ticking "Import erased members too"
 * (`MemberImportSettings.importErased`).
 * @param erasedKeys the email keys among the plan's adds that were erased
 * @returns a new plan (the given one unchanged)
 */
export function holdBackErased(plan: ImportPlan, erasedKeys: ReadonlySet<string>): ImportPlan {
  if (erasedKeys.size === 0) return plan;
  const counts = { ...plan.counts };
  const rows = plan.rows.map((row) => {
    if (row.outcome !== 'add' || !erasedKeys.has(emailKey(row.memberEmail))) return row;
    counts.add -= 1;
    counts.error += 1;
    return { ...row, outcome: 'error' as const, messages: [ERASED_EMAIL_ROW_MESSAGE] };
  });
  return {
    rows,
    counts,
    adds: plan.adds.filter((member) => !erasedKeys.has(member.emailKey)),
    updates: plan.updates,
    referrals: plan.referrals.filter((referral) => !erasedKeys.has(referral.emailKey)),
    notes: plan.notes.filter((note) => !erasedKeys.has(note.emailKey)),
  };
}
