import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@grove/contracts';
import type { Schema } from '@grove/api-contract';
import { ApiError, sessionKey } from '@grove/web-data-access';
import { createTestQueryClient, renderWithProviders } from '@grove/web-testing';
import { FIXED_PRICES_HINT, MemberForm } from './MemberForm';

const filled = {
  memberName: "Siobhán O'Brien",
  memberEmail: 'siobhan@harbour.example',
  membershipPrice: '89',
  discount: '10',
};

async function submitFailing(error: Error): Promise<string> {
  renderWithProviders(
    <MemberForm
      defaultValues={filled}
      submitLabel="Add branch"
      failurePrefix={MESSAGES.addBranchFailedPrefix}
      onSubmit={() => Promise.reject(error)}
    />,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Add branch' }));
  return (await screen.findByRole('alert')).textContent ?? '';
}

describe('MemberForm: what a failed save says', () => {
  it("a write error carries the spec's prefix (docs/product.md#errors)", async () => {
    expect(await submitFailing(new ApiError(500, 'Something went wrong'))).toBe(
      `${MESSAGES.addBranchFailedPrefix}Something went wrong`,
    );
  });

  it("a paused Grove's refusal (402) is its own sentence, with no write-error prefix", async () => {
    expect(await submitFailing(new ApiError(402, MESSAGES.billingPaused))).toBe(
      MESSAGES.billingPaused,
    );
  });
});

describe('MemberForm for a role that may not change prices (docs/product.md#staff-accounts)', () => {
  const renderAs = (role: 'front_desk' | 'manager') => {
    const client = createTestQueryClient();
    client.setQueryData(sessionKey, { role } as Schema<'SessionUser'>);
    renderWithProviders(
      <MemberForm defaultValues={filled} failurePrefix="" onSubmit={async () => undefined} />,
      { client },
    );
  };

  it('shows front desk the amounts read-only, saying why', () => {
    renderAs('front_desk');
    expect((screen.getByLabelText('Current Membership ($)') as HTMLInputElement).readOnly).toBe(
      true,
    );
    expect((screen.getByLabelText('Discount Per Referral ($)') as HTMLInputElement).readOnly).toBe(
      true,
    );
    expect(screen.getByText(FIXED_PRICES_HINT)).toBeTruthy();
  });

  it('lets a manager type them', () => {
    renderAs('manager');
    expect((screen.getByLabelText('Current Membership ($)') as HTMLInputElement).readOnly).toBe(
      false,
    );
    expect(screen.queryByText(FIXED_PRICES_HINT)).toBeNull();
  });
});
