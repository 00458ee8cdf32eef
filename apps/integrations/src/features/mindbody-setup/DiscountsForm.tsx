import {
  centsToDollarText,
  mindbodyDiscountsFromForm,
  validateMindbodyDiscountsForm,
  type MindbodyDiscountsForm,
  type MindbodyStatus,
} from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { useSaveMindbodyDiscounts } from './api/mindbody';
import { Alert, Button, TextField } from '@grove/web-ui';

/**
 * Stages 3 and 4 (docs/product.md#screens, docs/product.md#validation): discount on referral (required, at least 0.01) and discount for
 * referee (optional, at least 0, default 0), typed in dollars and sent as integer cents
 * (contracts' `validateMindbodyDiscountsForm`, the API's rule on the cents). Invalid values show
 * 'Please provide valid values.'; saving moves the setup to stage 4.
 */
export function DiscountsForm({ status }: { status: MindbodyStatus }) {
  const save = useSaveMindbodyDiscounts();
  const {
    submit,
    field,
    formState: { isSubmitting },
  } = useContractForm<MindbodyDiscountsForm>(validateMindbodyDiscountsForm, {
    values: {
      discountOnReferral: status.discounts
        ? centsToDollarText(status.discounts.discountOnReferralCents)
        : '',
      discountForReferee: status.discounts
        ? centsToDollarText(status.discounts.discountForRefereeCents)
        : '',
    },
    trim: ['discountOnReferral', 'discountForReferee'],
    onSubmit: (values) => save.mutateAsync(mindbodyDiscountsFromForm(values)),
    // Shown from the mutation's own error below.
    onError: () => undefined,
  });

  return (
    <form className="mb-form" onSubmit={submit} noValidate>
      {save.isError && <Alert>{save.error.message}</Alert>}
      {save.isSuccess && <Alert tone="success">Discounts saved.</Alert>}
      <div className="mb-form-row">
        <TextField
          label="Discount on referral ($)"
          inputMode="decimal"
          placeholder="10.00"
          hint="Taken off a member's bill for each friend they referred"
          {...field('discountOnReferral')}
        />
        <TextField
          label="Discount for referee ($)"
          inputMode="decimal"
          placeholder="0.00"
          hint="Taken off the referred friend's own bill (optional)"
          {...field('discountForReferee')}
        />
      </div>
      <Button type="submit" busy={isSubmitting}>
        {status.stage === 4 ? 'Save discounts' : 'Save discounts and finish'}
      </Button>
    </form>
  );
}
