import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@grove/contracts';
import { ApiError } from '@grove/web-data-access';
import { renderWithProviders } from '@grove/web-testing';
import { MemberForm } from './MemberForm';

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
