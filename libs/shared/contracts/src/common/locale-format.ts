/**
 * The one place Grove formats money and dates for people (issue 25: "money and dates follow the
 * business's locale and time zone"; docs/decisions/business-locale.md). A business's locale and
 * currency follow its country (docs/product.md#country); its time zone is chosen with the country
 * and can be changed in Account Settings. The dashboard, the integrations screens, the member
 * page and the member emails all format through `localeFormats` (or `formatCents`), never with
 * `toLocaleDateString`, `toFixed` or a locale of their own.
 */

/** How a business's amounts and dates are written. */
export interface BusinessLocale {
  /** BCP 47, English with the country's conventions, e.g. 'en-AU', 'en-US', 'en-GB'. */
  locale: string;
  /** ISO 4217 code of the country's currency, e.g. 'AUD'. */
  currency: string;
  /** IANA time zone dates are shown in, e.g. 'Australia/Sydney'. */
  timeZone: string;
}

/**
 * Currencies by country (ISO 3166-1 alpha-2 → ISO 4217), grouped by currency: `Intl` has no
 * country → currency table. Countries missing here show US dollars.
 */
const CURRENCY_COUNTRIES: Record<string, string> = {
  EUR: 'AD AT AX BE BG BL CY DE EE ES FI FR GF GP GR HR IE IT LT LU LV MC ME MF MQ MT NL PM PT RE SI SK SM VA XK YT',
  USD: 'AS BQ EC FM GU IO MH MP PR PW SV TC TL US VG VI',
  AUD: 'AU CC CX KI NF NR TV',
  NZD: 'CK NU NZ TK',
  GBP: 'GB GG IM JE TA',
  SHP: 'AC SH',
  XOF: 'BF BJ CI GW ML NE SN TG',
  XAF: 'CF CG CM GA GQ TD',
  XCD: 'AG AI DM GD KN LC MS VC',
  XPF: 'NC PF WF',
  DKK: 'DK FO GL',
  NOK: 'NO SJ',
  CHF: 'CH LI',
  ANG: 'CW SX',
  MAD: 'EH MA',
  ILS: 'IL PS',
};
const OWN_CURRENCY =
  'AE:AED AF:AFN AL:ALL AM:AMD AO:AOA AR:ARS AW:AWG AZ:AZN BA:BAM BB:BBD BD:BDT BH:BHD BI:BIF ' +
  'BM:BMD BN:BND BO:BOB BR:BRL BS:BSD BT:BTN BW:BWP BY:BYN BZ:BZD CA:CAD CD:CDF CL:CLP CN:CNY ' +
  'CO:COP CR:CRC CU:CUP CV:CVE CZ:CZK DJ:DJF DO:DOP DZ:DZD EG:EGP ER:ERN ET:ETB FJ:FJD FK:FKP ' +
  'GE:GEL GH:GHS GI:GIP GM:GMD GN:GNF GT:GTQ GY:GYD HK:HKD HN:HNL HT:HTG HU:HUF ID:IDR IN:INR ' +
  'IQ:IQD IR:IRR IS:ISK JM:JMD JO:JOD JP:JPY KE:KES KG:KGS KH:KHR KM:KMF KP:KPW KR:KRW KW:KWD ' +
  'KY:KYD KZ:KZT LA:LAK LB:LBP LK:LKR LR:LRD LS:LSL LY:LYD MD:MDL MG:MGA MK:MKD MM:MMK MN:MNT ' +
  'MO:MOP MR:MRU MU:MUR MV:MVR MW:MWK MX:MXN MY:MYR MZ:MZN NA:NAD NG:NGN NI:NIO NP:NPR OM:OMR ' +
  'PA:PAB PE:PEN PG:PGK PH:PHP PK:PKR PL:PLN PY:PYG QA:QAR RO:RON RS:RSD RU:RUB RW:RWF SA:SAR ' +
  'SB:SBD SC:SCR SD:SDG SE:SEK SG:SGD SL:SLE SO:SOS SR:SRD SS:SSP ST:STN SY:SYP SZ:SZL TH:THB ' +
  'TJ:TJS TM:TMT TN:TND TO:TOP TR:TRY TT:TTD TW:TWD TZ:TZS UA:UAH UG:UGX UY:UYU UZ:UZS VE:VES ' +
  'VN:VND VU:VUV WS:WST YE:YER ZA:ZAR ZM:ZMW ZW:ZWG';

const CURRENCY_BY_COUNTRY: ReadonlyMap<string, string> = new Map([
  ...Object.entries(CURRENCY_COUNTRIES).flatMap(([currency, countries]) =>
    countries.split(' ').map((country) => [country, currency] as [string, string]),
  ),
  ...OWN_CURRENCY.split(' ').map((pair) => pair.split(':') as [string, string]),
]);

/**
 * Where a country has more than one time zone, the one a new business starts with (its most
 * populous city's); a country with one zone starts with it (`Intl.Locale#timeZones`).
 */
const MAIN_TIME_ZONE: Record<string, string> = {
  AU: 'Australia/Sydney',
  US: 'America/New_York',
  CA: 'America/Toronto',
  BR: 'America/Sao_Paulo',
  MX: 'America/Mexico_City',
  RU: 'Europe/Moscow',
  ID: 'Asia/Jakarta',
  NZ: 'Pacific/Auckland',
  AR: 'America/Argentina/Buenos_Aires',
  CL: 'America/Santiago',
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
  DE: 'Europe/Berlin',
  GB: 'Europe/London',
  CN: 'Asia/Shanghai',
  KZ: 'Asia/Almaty',
  UA: 'Europe/Kyiv',
  MY: 'Asia/Kuala_Lumpur',
  EC: 'America/Guayaquil',
  CD: 'Africa/Kinshasa',
  MN: 'Asia/Ulaanbaatar',
  UZ: 'Asia/Tashkent',
  PF: 'Pacific/Tahiti',
  KI: 'Pacific/Tarawa',
  FM: 'Pacific/Pohnpei',
  MH: 'Pacific/Majuro',
  PG: 'Pacific/Port_Moresby',
  CY: 'Asia/Nicosia',
  GL: 'America/Nuuk',
};

/** The currency of `country` (ISO 4217), e.g. 'AUD' for 'AU', 'EUR' for 'FR'; 'USD' when unknown. */
export function currencyForCountry(country: string): string {
  return CURRENCY_BY_COUNTRY.get(country) ?? 'USD';
}

/**
 * The locale a business of `country` is written in: English (Grove's language) with the
 * country's conventions where the runtime knows them ('en-AU', 'en-US', 'en-GB', 'en-DE'), else
 * international English 'en-001' (day before month, e.g. for 'BR').
 */
export function localeForCountry(country: string): string {
  const wanted = `en-${country}`;
  try {
    if (new Intl.DateTimeFormat(wanted).resolvedOptions().locale === wanted) return wanted;
  } catch {
    // Not a well-formed tag: fall through.
  }
  return 'en-001';
}

/** True when `timeZone` is an IANA time zone the runtime knows ('Australia/Sydney', 'UTC'). */
export function isTimeZone(timeZone: unknown): timeZone is string {
  if (typeof timeZone !== 'string' || timeZone === '' || timeZone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The time zone a business of `country` starts with: its main city's where it has several
 * (AU 'Australia/Sydney', US 'America/New_York'), its only one otherwise, 'UTC' when the runtime
 * cannot tell (a browser without `Intl.Locale#timeZones`; the API decides what is stored).
 */
export function defaultTimeZone(country: string): string {
  const main = MAIN_TIME_ZONE[country];
  if (main) return main;
  try {
    const zones = (new Intl.Locale(`und-${country}`) as Intl.Locale & { timeZones?: string[] })
      .timeZones;
    if (zones?.[0] && isTimeZone(zones[0])) return zones[0];
  } catch {
    // Not a region code: fall through.
  }
  return 'UTC';
}

/** Every IANA time zone the runtime knows, sorted, with `current` in it (Account Settings' list). */
export function timeZoneOptions(current?: string): string[] {
  const zones = new Set<string>(
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [],
  );
  zones.add('UTC');
  if (current && isTimeZone(current)) zones.add(current);
  return [...zones].sort();
}

/**
 * A business's locale from its country and stored time zone (a time zone the runtime does not
 * know falls back to the country's default).
 */
export function businessLocale(country: string, timeZone?: string | null): BusinessLocale {
  return {
    locale: localeForCountry(country),
    currency: currencyForCountry(country),
    timeZone: timeZone && isTimeZone(timeZone) ? timeZone : defaultTimeZone(country),
  };
}

/** A business of the default country, Australia (en-AU, AUD, Australia/Sydney). */
export const DEFAULT_BUSINESS_LOCALE: BusinessLocale = {
  locale: 'en-AU',
  currency: 'AUD',
  timeZone: 'Australia/Sydney',
};

/** A business's formatters; every method is pure and cheap (the `Intl` objects are made once). */
export interface LocaleFormats {
  readonly business: BusinessLocale;
  /** Integer cents as money in the business's currency: 105900 → '$1,059.00' (en-AU, AUD). */
  money(cents: number): string;
  /** Cents as whole units for chart axes: 123456 → '$1,235'. */
  wholeMoney(cents: number): string;
  /** A count with the locale's grouping: 2500 → '2,500'. */
  count(value: number): string;
  /** The date of an instant in the business's time zone: '5 Mar 2026' (en-AU), 'Mar 5, 2026' (en-US). */
  date(instant: string | Date): string;
  /** A calendar day `YYYY-MM-DD` (no time zone: Mindbody's charge days, analytics periods) in the same format. */
  day(day: string): string;
  /** The date and time of an instant in the business's time zone: '5 Mar 2026, 9:05 pm'. */
  dateTime(instant: string | Date): string;
  /** A calendar month `YYYY-MM`: 'Mar 2026'. */
  month(month: string): string;
}

const formatsCache = new Map<string, LocaleFormats>();

function toDate(instant: string | Date): Date {
  return typeof instant === 'string' ? new Date(instant) : instant;
}

/**
 * The formatters of a business (cached per locale, currency and time zone). One date format per
 * locale everywhere: `dateStyle: 'medium'` ('5 Mar 2026' en-AU/en-GB, 'Mar 5, 2026' en-US).
 * @param business its locale, currency and time zone (`SessionUser.business`, `businessLocale`)
 */
export function localeFormats(business: BusinessLocale = DEFAULT_BUSINESS_LOCALE): LocaleFormats {
  const key = `${business.locale}|${business.currency}|${business.timeZone}`;
  const cached = formatsCache.get(key);
  if (cached) return cached;
  const { locale, currency, timeZone } = business;
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const whole = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  });
  const count = new Intl.NumberFormat(locale);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const dateTime = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  });
  const month = new Intl.DateTimeFormat(locale, {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const formats: LocaleFormats = {
    business: { locale, currency, timeZone },
    money: (cents) => money.format(cents / 100),
    wholeMoney: (cents) => whole.format(Math.round(cents / 100)),
    count: (value) => count.format(value),
    date: (instant) => date.format(toDate(instant)),
    day: (text) => day.format(new Date(`${text.slice(0, 10)}T00:00:00Z`)),
    dateTime: (instant) => dateTime.format(toDate(instant)),
    month: (text) => month.format(new Date(`${text.slice(0, 7)}-01T00:00:00Z`)),
  };
  formatsCache.set(key, formats);
  return formats;
}

/**
 * Formats integer cents as money, e.g. `4999` → `"$49.99"` (en-AU, AUD, the default business);
 * `localeFormats(business).money` with another business's locale.
 * @param cents integer cents (may be 0)
 * @param business the business whose currency and locale to use (default Australia)
 */
export function formatCents(cents: number, business?: BusinessLocale): string {
  return localeFormats(business).money(cents);
}

/**
 * The formatters of one member's bill (issue 32): the business's locale and time zone, in the
 * currency of the member's bill — a member billed on the business's Stripe is billed in its
 * subscription's currency (ISO 4217, e.g. 'USD': 6500 → 'USD 65.00' for an Australian business,
 * never '$65.00', which reads as its Australian dollars); anyone else in the business's own.
 * The one place a member's amounts choose their currency: the member page, member emails and the
 * dashboard's member views all use it.
 * @param business the business's locale, currency and time zone
 * @param billCurrency the member's bill's currency (any case), or null/undefined for the business's
 */
export function memberBillFormats(
  business: BusinessLocale,
  billCurrency?: string | null,
): LocaleFormats {
  return billCurrency
    ? localeFormats({ ...business, currency: billCurrency.toUpperCase() })
    : localeFormats(business);
}
