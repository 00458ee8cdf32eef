import type { ComponentPropsWithRef } from 'react';
import { TextField } from '@grove/web-ui';

/** What `useContractForm`'s `field(name)` gives one of the two fields (its ref, error, handlers). */
type PasswordFieldProps = Omit<ComponentPropsWithRef<typeof TextField>, 'label' | 'type'>;

/**
 * 'New password' and 'Confirm new password' side by side (one column on a phone), as 'Change
 * password' and 'Set a password' ask for them: password inputs the browser may fill with a new
 * password (`autocomplete="new-password"`).
 * @param newPassword the form's `field('newPassword', …)`
 * @param confirmPassword the form's `field('confirmPassword')`
 */
export function NewPasswordFields({
  newPassword,
  confirmPassword,
}: {
  newPassword: PasswordFieldProps;
  confirmPassword: PasswordFieldProps;
}) {
  return (
    <div className="dash-form-row">
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        {...newPassword}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        {...confirmPassword}
      />
    </div>
  );
}
