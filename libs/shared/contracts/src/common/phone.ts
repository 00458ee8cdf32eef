import { isValidPhoneNumber } from 'libphonenumber-js/min';
import { DEFAULT_COUNTRY, isCountryCode } from './country';
import { isPlainText } from './plain-text';

/**
 * A valid phone number, mobile or not (docs/product.md#country): read as a number of `country`
 * (the business's, ISO 3166-1 alpha-2; Australia unless given, the old app's en-AU rule), or of
 * its own country when written in international format (`+1 415 555 0134`). "(415) 555-0134"
 * passes for 'US', "0412 345 678" and "02 9876 5432" for 'AU'. Checked with libphonenumber-js
 * (min metadata). A control character anywhere, or an unknown country, refuses it.
 */
export function isValidPhone(value: string, country: string = DEFAULT_COUNTRY): boolean {
  return isPlainText(value) && isCountryCode(country) && isValidPhoneNumber(value.trim(), country);
}
