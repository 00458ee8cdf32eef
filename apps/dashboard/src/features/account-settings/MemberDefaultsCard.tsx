import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import {
  memberDefaultsFromForm,
  memberDefaultsToForm,
  validateMemberDefaultsForm,
  type MemberDefaultsForm,
} from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, Card, Spinner, TextField, useTimedMessage } from '@grove/web-ui';
import {
  useMemberDefaults,
  useSaveMemberDefaults,
} from '../../components/member-defaults/member-defaults-api';

/** The element id the 'Getting started' checklist links to (`#member-defaults`). */
export const MEMBER_DEFAULTS_ANCHOR = 'member-defaults';

/**
 * 'Defaults for new members' on Account Settings (docs/product.md#member-defaults): the
 * business's discount per referral and membership price, in dollars (empty = none), with the
 * add-member form's messages. The add-tree form starts from them, a CSV import without a discount
 * column gives every row the discount, and an approval starts from the referrer's values, else
 * these.
 */
export function MemberDefaultsCard() {
  const defaults = useMemberDefaults();
  const save = useSaveMemberDefaults();
  const [saved, setSaved] = useTimedMessage();
  const { hash } = useLocation();
  const {
    submit,
    field,
    reset,
    formState: { isSubmitting },
  } = useContractForm<MemberDefaultsForm>(validateMemberDefaultsForm, {
    defaultValues: { discount: '', membershipPrice: '' },
    trim: ['discount', 'membershipPrice'],
    fields: ['discount', 'membershipPrice'],
    serverNames: { discount: 'discountCents', membershipPrice: 'membershipPriceCents' },
    onSubmit: async (values) => {
      setSaved(null);
      const stored = await save.mutateAsync(memberDefaultsFromForm(values));
      reset(memberDefaultsToForm(stored));
      setSaved('Saved');
    },
  });
  useEffect(() => {
    if (defaults.data) reset(memberDefaultsToForm(defaults.data));
  }, [defaults.data, reset]);
  // Opened from the checklist's 'Set your discount' (…/account-settings#member-defaults): the page
  // renders after the browser looked for the anchor, so scroll to the card once it has its form.
  const loaded = defaults.data !== undefined;
  useEffect(() => {
    if (loaded && hash === `#${MEMBER_DEFAULTS_ANCHOR}`)
      document.getElementById(MEMBER_DEFAULTS_ANCHOR)?.scrollIntoView?.();
  }, [loaded, hash]);

  return (
    <Card
      className="dash-account__card"
      id={MEMBER_DEFAULTS_ANCHOR}
      aria-labelledby="member-defaults-title"
    >
      <h2 className="dash-account__title" id="member-defaults-title">
        Defaults for new members
      </h2>
      <p className="g-muted dash-account__lead">
        New trees, imports without a discount column and approvals start from these, so you don’t
        retype them. An approval starts from the referring member’s own price and discount when
        Grove knows them. Leave a field empty for no default.
      </p>
      {defaults.isError ? (
        <Alert>{defaults.error.message}</Alert>
      ) : !defaults.data ? (
        <Spinner label="Loading your defaults…" />
      ) : (
        <form onSubmit={submit} noValidate aria-labelledby="member-defaults-title">
          <div className="dash-form-row">
            <TextField
              label="Discount Per Referral ($)"
              inputMode="decimal"
              autoComplete="off"
              {...field('discount')}
            />
            <TextField
              label="Membership price ($)"
              inputMode="decimal"
              autoComplete="off"
              {...field('membershipPrice')}
            />
          </div>
          {save.isError && <Alert>{save.error.message}</Alert>}
          {saved && <Alert tone="success">{saved}</Alert>}
          <Button type="submit" busy={isSubmitting}>
            Save defaults
          </Button>
        </form>
      )}
    </Card>
  );
}
