import type { FieldValues, Path } from 'react-hook-form';
import { countrySelectOptions, DEFAULT_COUNTRY, phoneNumberHint } from '@grove/contracts';
import type { useContractForm } from '@grove/web-forms';
import { SelectField, TextField } from '@grove/web-ui';

/** A form of {@link useContractForm} whose values have a `country` (ISO 3166-1 alpha-2). */
type FormWithCountry<V extends FieldValues> = ReturnType<typeof useContractForm<V>>;

/**
 * The public forms' Country and Phone fields (the contact form, the 'Learn More' pop-up): the phone
 * is read for the chosen country (any valid number for it, or in international format:
 * docs/product.md#country) and its hint shows that country's example; changing the country checks
 * an already-refused phone again. `phone` names the form's phone field.
 */
export function CountryPhoneFields<V extends FieldValues & { country?: string }>({
  form,
  phone,
}: {
  form: FormWithCountry<V>;
  phone: Path<V>;
}) {
  const countryName = 'country' as Path<V>;
  const country = (form.watch(countryName) as string | undefined) ?? DEFAULT_COUNTRY;
  return (
    <>
      <SelectField
        label="Country"
        autoComplete="country"
        options={countrySelectOptions()}
        {...form.field(countryName, {
          onChange: () => {
            if ((form.formState.errors as Record<string, unknown>)[phone]) void form.trigger(phone);
          },
        })}
      />
      <TextField
        label="Phone"
        type="tel"
        autoComplete="tel"
        hint={phoneNumberHint(country)}
        {...form.field(phone)}
      />
    </>
  );
}
