import { useForm } from 'react-hook-form';
import {
  centsToDollarText,
  isValidAmount,
  isValidReferralDiscount,
  MESSAGES,
  type MindbodyStatus,
} from '@grove/contracts';
import { useSaveMindbodyDiscounts } from './api/mindbody';
import { Alert, Button, TextField } from '@grove/web-ui';

interface DiscountValues {
  discountOnReferral: string;
  discountForReferee: string;
}

const onReferralRule = (value: string) =>
  isValidReferralDiscount(value) || MESSAGES.mindbodyInvalidDiscounts;
const forRefereeRule = (value: string) =>
  value.trim() === '' || isValidAmount(value.trim()) || MESSAGES.mindbodyInvalidDiscounts;

/**
 * Stages 3 and 4 (docs/product.md#screens, docs/product.md#validation): discount on referral (required, at least 0.01) and discount for
 * referee (optional, at least 0, default 0), in dollars. Invalid values show 'Please provide valid
 * values.'; saving moves the setup to stage 4.
 */
export function DiscountsForm({ status }: { status: MindbodyStatus }) {
  const save = useSaveMindbodyDiscounts();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<DiscountValues>({
    values: {
      discountOnReferral: status.discounts
        ? centsToDollarText(status.discounts.discountOnReferralCents)
        : '',
      discountForReferee: status.discounts
        ? centsToDollarText(status.discounts.discountForRefereeCents)
        : '',
    },
  });

  const submit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({
        discountOnReferral: values.discountOnReferral.trim(),
        ...(values.discountForReferee.trim()
          ? { discountForReferee: values.discountForReferee.trim() }
          : {}),
      });
    } catch {
      // Shown from the mutation's own error below.
    }
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
          {...register('discountOnReferral', { validate: onReferralRule })}
          error={errors.discountOnReferral?.message}
        />
        <TextField
          label="Discount for referee ($)"
          inputMode="decimal"
          placeholder="0.00"
          hint="Taken off the referred friend's own bill (optional)"
          {...register('discountForReferee', { validate: forRefereeRule })}
          error={errors.discountForReferee?.message}
        />
      </div>
      <Button type="submit" busy={isSubmitting}>
        {status.stage === 4 ? 'Save discounts' : 'Save discounts and finish'}
      </Button>
    </form>
  );
}
