import { formatCents, type MindbodyBillChanges } from '@grove/contracts';

/** '1 member’s bill' / '409 members’ bills' (en-AU digits). */
export function countText(count: number, one: string, many: string): string {
  return count === 1 ? `1 ${one}` : `${count.toLocaleString('en-AU')} ${many}`;
}

/**
 * The total monthly difference of a set of bill changes in plain words (cents → dollars):
 * '$30.00 less a month in total', '$45.00 more a month in total', 'the same total each month'.
 */
export function monthlyText(differenceCents: number): string {
  if (differenceCents === 0) return 'the same total each month';
  return `${formatCents(Math.abs(differenceCents))} ${differenceCents < 0 ? 'less' : 'more'} a month in total`;
}

/** The sync's run record in words (issue 25): '1 bill written', '12 bills written', 'no bill written'. */
export function billsWrittenText(count: number): string {
  if (count === 0) return 'no bill written';
  return `${countText(count, 'bill', 'bills')} written`;
}

/** '−$10.00' / '+$5.00' for a change of a bill (cents). */
function signedCents(cents: number): string {
  return `${cents < 0 ? '−' : '+'}${formatCents(Math.abs(cents))}`;
}

/**
 * One page of Mindbody bill changes (issue 25): each member's name, what Mindbody bills now →
 * what it will bill, and the difference; when there are more than the page holds, how many more.
 */
export function BillChangesList({
  changes,
  label,
}: {
  changes: MindbodyBillChanges;
  label: string;
}) {
  const more = changes.total - changes.items.length;
  return (
    <>
      <ul className="mb-bills" aria-label={label}>
        {changes.items.map((change) => (
          <li key={change.memberId} className="mb-bill">
            <span className="mb-bill__name">{change.name}</span>
            <span className="mb-bill__amounts">
              <span className="g-visually-hidden"> from </span>
              {formatCents(change.currentCents)}
              <span aria-hidden="true"> → </span>
              <span className="g-visually-hidden"> to </span>
              <strong>{formatCents(change.newCents)}</strong>{' '}
              <span className="g-muted">({signedCents(change.differenceCents)})</span>
            </span>
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p className="g-muted mb-bills__more">
          …and {countText(more, 'more bill', 'more bills')} (the first{' '}
          {changes.items.length.toLocaleString('en-AU')} by name are shown).
        </p>
      )}
    </>
  );
}
