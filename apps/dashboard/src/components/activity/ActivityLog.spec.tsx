import { screen, within } from '@testing-library/react';
import type { AuditEntry } from '@grove/contracts';
import { http, renderWithProviders, server } from '@grove/web-testing';
import { ActivityLog } from './ActivityLog';

const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
  id: 'e1',
  at: '2026-11-20T09:00:00.000Z',
  actor: 'staff',
  authorUserId: 'u1',
  authorName: "Siobhán O'Brien",
  kind: 'member.price_changed',
  memberId: 'm1',
  memberName: "Zoë D'Arcy-Nguyễn",
  before: null,
  after: null,
  ...overrides,
});

beforeEach(() => {
  server.use(
    http.get('/audit-log/authors', ({ response }) => response(200).json([])),
    http.get('/audit-log', ({ response }) =>
      response(200).json({
        items: [
          entry({
            id: 'price',
            before: { membershipPriceCents: 10_000, discountCents: 1_500 },
            after: { membershipPriceCents: 12_050, discountCents: 2_000 },
          }),
          entry({
            id: 'bill',
            actor: 'mindbody',
            authorUserId: null,
            authorName: 'Mindbody',
            kind: 'bill.written',
            before: { billing: 'Mindbody', billCents: 8_500 },
            after: { billing: 'Mindbody', billCents: 7_500 },
          }),
          entry({
            id: 'setting',
            kind: 'settings.changed',
            memberId: null,
            memberName: null,
            // As PostgreSQL's jsonb returns them: shorter keys first.
            before: { days: null, rule: 'approval', setting: 'When a branch counts' },
            after: { days: 30, rule: 'days', setting: 'When a branch counts' },
          }),
        ],
        total: 3,
        page: 1,
        pageSize: 25,
      }),
    ),
  );
});

describe('ActivityLog (docs/product.md#audit-log)', () => {
  it('names each field for people and shows money in dollars, never the raw field names', async () => {
    renderWithProviders(<ActivityLog />);
    const rows = await screen.findAllByRole('row');
    const [price, bill, setting] = rows.slice(1);
    expect(within(price).getByText('Membership price: $100.00')).toBeTruthy();
    expect(within(price).getByText('Membership price: $120.50')).toBeTruthy();
    expect(within(price).getByText('Discount per referral: $20.00')).toBeTruthy();
    expect(within(bill).getByText('Bill: $85.00')).toBeTruthy();
    expect(within(bill).getAllByText('Billed by: Mindbody')).toHaveLength(2);
    expect(within(setting).getByText('Branch counts: At approval')).toBeTruthy();
    expect(within(setting).getByText('Branch counts: After days as a member')).toBeTruthy();
    expect(within(setting).getByText('Days: —')).toBeTruthy();
    // The setting's name comes first.
    expect(within(setting).getAllByText(/^Setting: /)[0]?.previousSibling).toBeNull();
    const text = document.body.textContent ?? '';
    for (const raw of ['membershipPriceCents', 'discountCents', 'billCents', 'Cents'])
      expect(text).not.toContain(raw);
  });
});
