/**
 * A business's country (docs/product.md#country, issue 25 Build 1): chosen at signup (Australia
 * unless changed, the old app's en-AU rule), editable in Account Settings; phone numbers are read
 * for it. Codes are ISO 3166-1 alpha-2, the regions libphonenumber-js has phone metadata for.
 * Kept apart from field-rules.ts because it bundles libphonenumber's metadata.
 */
import {
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/min';

/** The country of a business that has not chosen one (the old app's phone locale, en-AU). */
export const DEFAULT_COUNTRY = 'AU';

/** True when `value` is an upper-case ISO 3166-1 alpha-2 code libphonenumber-js knows (e.g. 'AU', 'US'). */
export function isCountryCode(value: unknown): value is CountryCode {
  return typeof value === 'string' && /^[A-Z]{2}$/.test(value) && isSupportedCountry(value);
}

/**
 * The country's name in `locale` (`Intl.DisplayNames`), e.g. 'United States' for 'US'; the code
 * itself where the runtime has no name for it.
 */
export function countryName(code: string, locale = 'en'): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The hint under a phone number field (signup, Account Settings, contact): which country the
 * number is read for, e.g. 'United States (+1) numbers, or any number in international format.'
 */
export function phoneNumberHint(country: string, locale = 'en'): string {
  const code = isCountryCode(country) ? ` (+${getCountryCallingCode(country)})` : '';
  return `${countryName(country, locale)}${code} numbers, or any number in international format.`;
}

/** Every country a business may choose, `{ code, name }` sorted by name in `locale`. */
export function countryOptions(locale = 'en'): { code: CountryCode; name: string }[] {
  return getCountries()
    .map((code) => ({ code, name: countryName(code, locale) }))
    .sort((a, b) => a.name.localeCompare(b.name, locale));
}

let selectOptions: readonly { value: CountryCode; label: string }[] | undefined;

/**
 * The country select of every form that asks for a country (signup, account settings, contact,
 * Learn More): `countryOptions()` in English as `{ value, label }`, built once.
 */
export function countrySelectOptions(): readonly { value: CountryCode; label: string }[] {
  selectOptions ??= countryOptions().map((option) => ({ value: option.code, label: option.name }));
  return selectOptions;
}

/**
 * A valid phone number written in international format (`+1 415 555 0134`), read as a number of
 * `country` unless it starts with `+`; null when it is not a valid number.
 */
export function internationalPhone(value: string, country: string): string | null {
  if (!isCountryCode(country)) return null;
  const phone = parsePhoneNumberFromString(value.trim(), country);
  return phone?.isValid() ? phone.formatInternational() : null;
}
