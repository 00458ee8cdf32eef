import type { ReactNode } from 'react';
import { hrefs } from '@grove/contracts';
import { useRoleMay } from '@grove/web-data-access';
import { useAccount } from './api/account';
import { useBilling } from './api/billing';
import { BillingCard } from './BillingCard';
import { BranchRuleCard } from './BranchRuleCard';
import { ChangePasswordCard } from './ChangePasswordCard';
import { MemberDefaultsCard } from './MemberDefaultsCard';
import { MemberEmailsCard } from './MemberEmailsCard';
import { ReferralNudgesCard } from './ReferralNudgesCard';
import { ShareMessageCard } from './ShareMessageCard';
import { JoinPageCard } from './JoinPageCard';
import { SignInsCard } from './SignInsCard';
import { TeamCard } from './TeamCard';
import { WelcomeOfferCard } from './WelcomeOfferCard';
import { ReferrerRewardCard } from './ReferrerRewardCard';
import { SecurityCard } from './security/SecurityCard';
import { SetPasswordCard } from './security/SetPasswordCard';
import { useSecondFactor } from './security/api/second-factor';
import { DataExportCard } from './data-rights/DataExportCard';
import { CloseAccountCard } from './data-rights/CloseAccountCard';
import { ActivityRetentionCard } from './data-rights/ActivityRetentionCard';

/**
 * One section of Account Settings (issue 34 item 5, docs/product.md#account-settings): its own
 * address under /dashboard/account-settings and the cards it holds.
 */
export interface SettingsSection {
  /** The route below account-settings ('' for the first section). */
  path: string;
  /** The navigation's label. */
  label: string;
  /** The section's address (hrefs). */
  to: string;
  /** Its cards. */
  element: ReactNode;
}

/**
 * Security: the password ('Set a password' for an account that joined with a passkey; the notice after a login whose password is too weak), the second
 * factor (with the notice when the business requires one, docs/product.md#second-factor) and
 * sign-ins.
 */
function SecuritySection({ notices }: { notices: SecurityNotices }) {
  // An account that joined with a passkey has no password its person knows: 'Set a password'.
  const passwordSet = useSecondFactor().data?.passwordSet;
  return (
    <>
      {passwordSet === false ? (
        <SetPasswordCard />
      ) : (
        <ChangePasswordCard required={notices.passwordChangeRequired === true} />
      )}
      <SecurityCard setupRequired={notices.secondFactorSetupRequired === true} />
      <SignInsCard />
    </>
  );
}

/** What a login may ask of the person when it sends them to Security (the router's state). */
export interface SecurityNotices {
  passwordChangeRequired?: boolean;
  secondFactorSetupRequired?: boolean;
}

/** Emails & sharing: which event emails members get, the message they share, the business's own join page, and when they are asked to refer. */
function EmailsSection() {
  const businessName = useAccount().data?.businessName;
  return (
    <>
      <MemberEmailsCard businessName={businessName} />
      <ShareMessageCard businessName={businessName} />
      <JoinPageCard />
      <ReferralNudgesCard />
    </>
  );
}

/**
 * The sections the signed-in role may open, in the navigation's order (docs/product.md#staff-accounts):
 * everyone has Your details and Security; owners and managers the business's settings (Members &
 * rewards, Emails & sharing); owners Team, Billing (only while Grove bills, GROVE_BILLING) and
 * Your data (export everything, how long the activity log is kept, close the account:
 * docs/product.md#data-rights). A section left out has no route either, so its address shows Your details.
 * @param details the first section's cards (the page renders the account's loading state)
 * @param notices what the login asked of the person (a new password, a second factor)
 */
export function useSettingsSections(
  details: ReactNode,
  notices: SecurityNotices,
): SettingsSection[] {
  const mayManage = useRoleMay('manage');
  const mayTeam = useRoleMay('team');
  const mayBilling = useRoleMay('billing');
  const mayDataRights = useRoleMay('dataRights');
  const billingOff = useBilling(false, mayBilling).data?.enabled === false;
  const sections: (SettingsSection | false)[] = [
    { path: '', label: 'Your details', to: hrefs.accountSettings, element: details },
    {
      path: 'security',
      label: 'Security',
      to: hrefs.accountSecurity,
      element: <SecuritySection notices={notices} />,
    },
    mayManage && {
      path: 'members',
      label: 'Members & rewards',
      to: hrefs.accountMembers,
      element: (
        <>
          <MemberDefaultsCard />
          <BranchRuleCard />
          <ReferrerRewardCard />
          <WelcomeOfferCard />
        </>
      ),
    },
    mayManage && {
      path: 'emails',
      label: 'Emails & sharing',
      to: hrefs.accountEmails,
      element: <EmailsSection />,
    },
    mayTeam && { path: 'team', label: 'Team', to: hrefs.accountTeam, element: <TeamCard /> },
    mayBilling &&
      !billingOff && {
        path: 'billing',
        label: 'Billing',
        to: hrefs.billing,
        element: <BillingCard />,
      },
    mayDataRights && {
      path: 'data',
      label: 'Your data',
      to: hrefs.accountData,
      element: (
        <>
          <DataExportCard />
          <ActivityRetentionCard />
          <CloseAccountCard />
        </>
      ),
    },
  ];
  return sections.filter((section): section is SettingsSection => section !== false);
}
