import { screen } from '@testing-library/react';
import type { Schema } from '@grove/api-contract';
import type { ReferralLink, StaffRole } from '@grove/contracts';
import { sessionKey } from '@grove/web-data-access';
import { createTestQueryClient, renderWithProviders } from '@grove/web-testing';
import { ReferralLinkControls } from './ReferralLinkControls';
import { useReferralLinkActions } from './referral-link-api';

const link = { code: 'Xy7pQ2', url: 'https://grove.example/referral/Xy7pQ2' } as ReferralLink;

function Controls({ withLink }: { withLink: boolean }) {
  const actions = useReferralLinkActions();
  return (
    <ReferralLinkControls
      memberId="m1"
      memberName="Siobhán O'Brien"
      link={withLink ? link : null}
      actions={actions}
    />
  );
}

const renderAs = (role: StaffRole, withLink: boolean) => {
  const client = createTestQueryClient();
  client.setQueryData(sessionKey, { role } as Schema<'SessionUser'>);
  renderWithProviders(<Controls withLink={withLink} />, { client });
};

describe('referral link controls by role (docs/product.md#staff-accounts)', () => {
  it('let front desk create, renew and remove links', () => {
    renderAs('front_desk', true);
    expect(screen.getByRole('button', { name: 'New link' })).toBeTruthy();
    expect(
      screen.getByRole('button', { name: "Remove referral link of Siobhán O'Brien" }),
    ).toBeTruthy();
  });

  it('show a viewer the link, Copy and the QR codes only', () => {
    renderAs('viewer', true);
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New link' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Remove referral link/ })).toBeNull();
  });

  it('offer a viewer no "Create link"', () => {
    renderAs('viewer', false);
    expect(screen.queryByRole('button', { name: /Create referral link/ })).toBeNull();
  });
});
