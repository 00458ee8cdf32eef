import {
  businessLocale,
  currencyForCountry,
  defaultTimeZone,
  formatCents,
  memberBillFormats,
  isTimeZone,
  localeFormats,
  localeForCountry,
  timeZoneOptions,
} from './locale-format';

const NBSP = '\u00a0';
const NNBSP = '\u202f';
/** 10:30 UTC on 5 March 2026: already the evening of the 5th in Sydney, morning in New York. */
const MORNING_UTC = '2026-03-05T10:30:00Z';
/** 23:30 UTC on 5 March 2026: the 6th in Sydney, the 5th in New York and London. */
const LATE_UTC = '2026-03-05T23:30:00Z';

describe('a business country → locale, currency and time zone (issue 25)', () => {
  it.each([
    ['AU', 'en-AU', 'AUD', 'Australia/Sydney'],
    ['US', 'en-US', 'USD', 'America/New_York'],
    ['GB', 'en-GB', 'GBP', 'Europe/London'],
    ['NZ', 'en-NZ', 'NZD', 'Pacific/Auckland'],
    ['IE', 'en-IE', 'EUR', 'Europe/Dublin'],
    ['FR', 'en-FR', 'EUR', 'Europe/Paris'],
    ['CA', 'en-CA', 'CAD', 'America/Toronto'],
  ])('%s → %s, %s, %s', (country, locale, currency, timeZone) => {
    expect(businessLocale(country)).toEqual({ locale, currency, timeZone });
  });

  it('writes a country without English conventions in international English', () => {
    expect(localeForCountry('BR')).toBe('en-001');
    expect(currencyForCountry('BR')).toBe('BRL');
    expect(localeFormats(businessLocale('BR')).day('2026-03-05')).toBe('5 Mar 2026');
  });

  it('keeps a chosen time zone, and falls back to the country default for an unknown one', () => {
    expect(businessLocale('AU', 'Australia/Perth').timeZone).toBe('Australia/Perth');
    expect(businessLocale('AU', 'Mars/Olympus_Mons').timeZone).toBe('Australia/Sydney');
    expect(businessLocale('US', null).timeZone).toBe('America/New_York');
  });

  it('knows IANA time zones, and lists them for the picker', () => {
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Londn')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone(42)).toBe(false);
    const options = timeZoneOptions();
    expect(options).toEqual(
      expect.arrayContaining(['Australia/Sydney', 'America/New_York', 'UTC']),
    );
    expect(defaultTimeZone('JP')).toBe('Asia/Tokyo');
  });
});

describe('localeFormats per locale', () => {
  const au = localeFormats(businessLocale('AU'));
  const us = localeFormats(businessLocale('US'));
  const gb = localeFormats(businessLocale('GB'));

  it('en-AU: dollars, day before month, Sydney time', () => {
    expect(au.money(105_900)).toBe('$1,059.00');
    expect(au.money(0)).toBe('$0.00');
    expect(au.wholeMoney(123_456)).toBe('$1,235');
    expect(au.count(2_500)).toBe('2,500');
    expect(au.date(MORNING_UTC)).toBe('5 Mar 2026');
    expect(au.date(LATE_UTC)).toBe('6 Mar 2026');
    expect(au.dateTime(MORNING_UTC)).toMatch(/^5 Mar 2026, 9:30\s?pm$/u);
    expect(au.day('2026-12-01')).toBe('1 Dec 2026');
    expect(au.month('2026-01')).toBe('Jan 2026');
  });

  it('en-US: dollars, month before day, New York time', () => {
    expect(us.money(105_900)).toBe('$1,059.00');
    expect(us.date(MORNING_UTC)).toBe('Mar 5, 2026');
    expect(us.date(LATE_UTC)).toBe('Mar 5, 2026');
    expect(us.dateTime(MORNING_UTC)).toMatch(/^Mar 5, 2026, 5:30\s?AM$/u);
    expect(us.day('2026-12-01')).toBe('Dec 1, 2026');
    expect(us.month('2026-01')).toBe('Jan 2026');
  });

  it('en-GB: pounds, day before month, London time (24-hour clock)', () => {
    expect(gb.money(105_900)).toBe('£1,059.00');
    expect(gb.wholeMoney(4_999)).toBe('£50');
    expect(gb.date(LATE_UTC)).toBe('5 Mar 2026');
    expect(gb.dateTime(MORNING_UTC)).toBe('5 Mar 2026, 10:30');
    expect(gb.day('2026-12-01')).toBe('1 Dec 2026');
  });

  it('a euro business written in French: 1 059,00 €', () => {
    const fr = localeFormats({ locale: 'fr-FR', currency: 'EUR', timeZone: 'Europe/Paris' });
    expect(fr.money(105_900)).toBe(`1${NNBSP}059,00${NBSP}€`);
    expect(fr.date(MORNING_UTC)).toBe('5 mars 2026');
  });

  it('formatCents is the default business (Australia) unless told another', () => {
    expect(formatCents(4_999)).toBe('$49.99');
    expect(formatCents(4_999, businessLocale('GB'))).toBe('£49.99');
    expect(formatCents(4_999, businessLocale('IE'))).toBe('€49.99');
  });

  it("a member's bill in another currency than the business's: 'USD 65.00' in Australia, never '$65.00'", () => {
    const au = businessLocale('AU', 'Australia/Perth');
    expect(memberBillFormats(au, 'usd').money(6_500)).toBe(`USD${NBSP}65.00`);
    expect(memberBillFormats(au, 'EUR').money(6_500)).toBe(`EUR${NBSP}65.00`);
    expect(memberBillFormats(au, 'AUD').money(6_500)).toBe('$65.00');
    expect(memberBillFormats(au, null).money(6_500)).toBe('$65.00');
    expect(memberBillFormats(au, 'usd').date(MORNING_UTC)).toBe(
      localeFormats(au).date(MORNING_UTC),
    );
  });
});
