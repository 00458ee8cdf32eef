import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ERASED_EMAIL_MESSAGE, MESSAGES } from '@grove/contracts';
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

describe('MemberForm for an email erased on request (docs/product.md#data-rights)', () => {
  const erased = () =>
    new ApiError(409, ERASED_EMAIL_MESSAGE, { memberEmail: ERASED_EMAIL_MESSAGE });

  it('asks whether the person asked to come back, and adds them again only when confirmed', async () => {
    const sent: unknown[] = [];
    const onSubmit = jest.fn(async (body: unknown) => {
      sent.push(body);
      if (!(body as { confirmErased?: boolean }).confirmErased) throw erased();
    });
    const user = userEvent.setup();
    renderWithProviders(
      <MemberForm
        defaultValues={filled}
        submitLabel="Add member"
        failurePrefix={MESSAGES.addBranchFailedPrefix}
        onSubmit={onSubmit}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    const question = await screen.findByRole('alertdialog');
    expect(question.textContent).toContain(ERASED_EMAIL_MESSAGE);
    expect(question.textContent).toContain('Did they ask to come back?');
    // A question, not a field error, and not a failure with the write-error prefix.
    expect(screen.queryByText(MESSAGES.addBranchFailedPrefix, { exact: false })).toBeNull();
    expect(screen.getAllByText(ERASED_EMAIL_MESSAGE, { exact: false })).toHaveLength(1);

    await user.click(within(question).getByRole('button', { name: 'Add them again' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(sent).toEqual([
      {
        memberName: "Siobhán O'Brien",
        memberEmail: 'siobhan@harbour.example',
        membershipPriceCents: 8_900,
        discountCents: 1_000,
      },
      {
        memberName: "Siobhán O'Brien",
        memberEmail: 'siobhan@harbour.example',
        membershipPriceCents: 8_900,
        discountCents: 1_000,
        confirmErased: true,
      },
    ]);
  });

  it('Cancel adds nobody', async () => {
    const onSubmit = jest.fn(() => Promise.reject(erased()));
    const user = userEvent.setup();
    renderWithProviders(<MemberForm defaultValues={filled} failurePrefix="" onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }),
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});
