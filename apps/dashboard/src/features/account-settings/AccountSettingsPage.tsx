import { useAccount } from '@grove/web-data-access';
import { Alert, PageHeader, Spinner } from '@grove/web-ui';
import { AccountDetailsCard } from './AccountDetailsCard';
import { ChangePasswordCard } from './ChangePasswordCard';

/**
 * Account Settings (issue 5; opened from the account menu): the owner's details and business
 * (`GET/PATCH /api/account`) and a password change (`POST /api/account/password`).
 */
export function AccountSettingsPage() {
  const account = useAccount();
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
      <ChangePasswordCard />
    </div>
  );
}
