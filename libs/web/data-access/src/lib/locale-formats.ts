import { localeFormats, type LocaleFormats } from '@grove/contracts';
import { useSession } from './session';

/**
 * The signed-in business's money and date formatters (contracts' `localeFormats` with the
 * session's locale, currency and time zone; docs/decisions/business-locale.md). Australia's
 * (en-AU, AUD, Australia/Sydney) while the session loads or when signed out.
 */
export function useLocaleFormats(): LocaleFormats {
  const business = useSession().data?.business;
  return localeFormats(
    business?.locale && business.currency && business.timeZone ? business : undefined,
  );
}
