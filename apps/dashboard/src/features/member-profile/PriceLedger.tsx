import { PRICE_CHANGE_REASON_TEXT, type PriceLedgerLine } from '@grove/contracts';
import { useLocaleFormats } from '@grove/web-data-access';
import { useMemberMoney } from '../../components/membership-price/MemberMoney';
import { EmptyState } from '@grove/web-ui';

/** The reason of a ledger line in words, with the branch that caused it when known. */
export function reasonText(line: PriceLedgerLine): string {
  const reason = PRICE_CHANGE_REASON_TEXT[line.reason] ?? line.reason;
  return line.branchName ? `${reason}: ${line.branchName}` : reason;
}

/**
 * A member's price ledger (`price_changes`), newest first: Date, Reason (in words) and Price
 * (old → new, dollars; the first line shows the new price only), in the currency of the member's
 * bill (`currency`: a Stripe-billed member's subscription's; default the business's).
 */
export function PriceLedger({ lines, currency }: { lines: PriceLedgerLine[]; currency?: string }) {
  const format = useLocaleFormats();
  const money = useMemberMoney(currency);
  if (lines.length === 0)
    return <EmptyState message="No price changes recorded yet. They appear here as they happen." />;
  return (
    <div className="g-table-wrap">
      <table className="g-table dash-ledger" data-testid="price-ledger">
        <caption className="g-visually-hidden">Price changes, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Reason</th>
            <th scope="col" className="g-num">
              Price
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => (
            <tr key={`${line.occurredAt}-${index}`} data-testid="ledger-line">
              <td>{format.date(line.occurredAt)}</td>
              <td data-label="Reason">{reasonText(line)}</td>
              <td className="g-num" data-label="Price">
                {line.oldPriceCents === null ? (
                  money(line.newPriceCents)
                ) : (
                  <>
                    <span className="dash-ledger__old">{money(line.oldPriceCents)}</span>
                    <span aria-hidden="true"> → </span>
                    <span className="g-visually-hidden"> to </span>
                    {money(line.newPriceCents)}
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
