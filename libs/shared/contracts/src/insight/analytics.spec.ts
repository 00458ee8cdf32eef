import {
  ANALYTICS_MESSAGES,
  addDays,
  daysInPeriod,
  isCalendarDay,
  resolveAnalyticsPeriod,
  type AnalyticsPeriodQuery,
} from './analytics';

const today = '2026-11-23';

describe('resolveAnalyticsPeriod (the analytics period rule of the API and the picker)', () => {
  it.each([
    [{}, { from: '2026-10-25', to: today }],
    [{ period: '30' }, { from: '2026-10-25', to: today }],
    [{ period: '90' }, { from: '2026-08-26', to: today }],
    [{ period: '365' }, { from: '2025-11-24', to: today }],
    [
      { from: '2024-02-29', to: '2024-03-01' },
      { from: '2024-02-29', to: '2024-03-01' },
    ],
    [
      { from: today, to: today },
      { from: today, to: today },
    ],
  ])('%o → %o', (query: AnalyticsPeriodQuery, period) => {
    const resolved = resolveAnalyticsPeriod(query, today);
    expect(resolved.period).toEqual(period);
    expect(daysInPeriod(resolved.period!)).toBe(
      query.period ? Number(query.period) : query.from ? daysInPeriod(period) : 30,
    );
  });

  it.each([
    [{ period: '31' }, 'period', ANALYTICS_MESSAGES.periodInvalid],
    [{ period: '030' }, 'period', ANALYTICS_MESSAGES.periodInvalid],
    [{ period: '30', to: today }, 'period', ANALYTICS_MESSAGES.presetAndDates],
    [{ from: '', to: today }, 'from', ANALYTICS_MESSAGES.datesIncomplete],
    [{ from: '2025-02-29', to: today }, 'from', ANALYTICS_MESSAGES.dateInvalid],
    [{ from: '2026-1-1', to: today }, 'from', ANALYTICS_MESSAGES.dateInvalid],
    [{ from: today, to: '2026-11-24' }, 'to', ANALYTICS_MESSAGES.endInFuture],
    [{ from: '2026-11-22', to: '2026-11-21' }, 'from', ANALYTICS_MESSAGES.startAfterEnd],
    [{ from: addDays(today, -1096), to: today }, 'from', ANALYTICS_MESSAGES.tooLong],
  ])('%o → %s: %s', (query: AnalyticsPeriodQuery, field, message) => {
    expect(resolveAnalyticsPeriod(query, today).error).toEqual({ field, message });
  });

  it('knows real calendar days', () => {
    expect(['2024-02-29', '2026-12-31'].map(isCalendarDay)).toEqual([true, true]);
    expect(['2026-02-29', '2026-13-01', '26-01-01', '2026-01-01T00:00'].map(isCalendarDay)).toEqual(
      [false, false, false, false],
    );
  });
});
