import { useLocation } from 'react-router-dom';
import type { AccountSettingsRouteState } from '@grove/contracts';
import { useAccount } from './api/account';
import { Alert, PageHeader, Spinner } from '@grove/web-ui';
import { AccountDetailsCard } from './AccountDetailsCard';
import { ChangePasswordCard } from './ChangePasswordCard';
import { SignInsCard } from './SignInsCard';
import { MemberEmailsCard } from './MemberEmailsCard';
import { BranchRuleCard } from './BranchRuleCard';
import { BillingCard } from './BillingCard';
import { MemberDefaultsCard } from './MemberDefaultsCard';
import { ShareMessageCard } from './ShareMessageCard';
import { WelcomeOfferCard } from './WelcomeOfferCard';
import { TeamCard } from './TeamCard';
import { SecurityCard } from './security/SecurityCard';
import { useRoleMay } from '@grove/web-data-access';
import './account-settings.css';

/**
 * Account Settings (issue 5; opened from the account menu): the owner's details and business
 * (`GET/PATCH /api/account`) and a password change (`POST /api/account/password`). After a login
 * whose password no longer meets Grove's rule, the shell sends the owner here with
 * `AccountSettingsRouteState.passwordChangeRequired`, and 'Change password' says why. Below,
 * 'Emails to members': which event emails go to members (`/api/settings/member-emails`), then
 * 'Message members share' (`/api/settings/share-message`, docs/product.md#share-message) and
 * 'Welcome offer' (`/api/settings/welcome-offer`, docs/product.md#welcome-offer).
 * 'Defaults for new members' (`/api/settings/member-defaults`, docs/product.md#member-defaults)
 * comes right after the details and Billing (Grove's own bill, docs/product.md#billing, the
 * banner's link): the checklist on Branches links to it. Each card shows only to the roles that
 * may change it (docs/product.md#staff-accounts): Billing and Team to owners, the business's
 * settings to owners and managers; everyone keeps their details, password and sign-ins.
 */
export function AccountSettingsPage() {
  const account = useAccount();
  const state = useLocation().state as AccountSettingsRouteState | null;
  const mayBilling = useRoleMay('billing');
  const mayTeam = useRoleMay('team');
  const mayManage = useRoleMay('manage');
  return (
    <div className="dash-account">
      <PageHeader
        title="Account Settings"
        description="Keep your details up to date and your account secure."
      />
      {account.isPending ? (
        <Spinner label="Loading your details…" />
      ) : account.isError ? (
        <Alert>{account.error.message}</Alert>
      ) : (
        <AccountDetailsCard account={account.data} />
      )}
      {mayBilling && <BillingCard />}
      {mayManage && <MemberDefaultsCard />}
      {mayTeam && <TeamCard />}
      <ChangePasswordCard required={state?.passwordChangeRequired === true} />
      <SignInsCard />
      <SecurityCard setupRequired={state?.secondFactorSetupRequired === true} />
      {mayManage && <MemberEmailsCard businessName={account.data?.businessName} />}
      {mayManage && <ShareMessageCard businessName={account.data?.businessName} />}
      {mayManage && <WelcomeOfferCard />}
      {mayManage && <BranchRuleCard />}
    </div>
  );
}
