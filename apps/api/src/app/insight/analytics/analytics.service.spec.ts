import type { BusinessScope } from '../../platform/database/business-scope';
import { sessionScope } from '../../platform/database/business-scope';
import type { AnalyticsRepository } from './analytics.repository';
import type { WelcomeOfferService } from '../../referral/welcome-offer/welcome-offer.service';
import { ANALYTICS_CACHE_MS, AnalyticsService } from './analytics.service';

/** A repository that counts how often the funnel is computed, at a version the test sets. */
function countingRepository() {
  const state = { version: '1.1', computed: 0 };
  const repository = {
    version: async () => state.version,
    funnel: async () => {
      state.computed += 1;
      return { links: 2, visits: 4, joins: 2, approved: 1 };
    },
  } as unknown as AnalyticsRepository;
  return { state, repository };
}

describe('AnalyticsService keeps an answer while the business records nothing new', () => {
  const scope: BusinessScope = sessionScope({ businessId: 'b-1' });
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-23T10:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it(`answers from the kept answer, recomputes after a new fact or ${ANALYTICS_CACHE_MS / 1000} s`, async () => {
    const { state, repository } = countingRepository();
    const service = new AnalyticsService(repository, {} as WelcomeOfferService);
    const first = await service.funnel(scope, { period: '30' });
    expect(first.steps.map((step) => step.conversion)).toEqual([null, 2, 0.5, 0.5]);
    await service.funnel(scope, { period: '30' });
    expect(state.computed).toBe(1);
    // Another period, or another business, is another answer.
    await service.funnel(scope, { period: '90' });
    await service.funnel(sessionScope({ businessId: 'b-2' }), { period: '30' });
    expect(state.computed).toBe(3);
    state.version = '2.1';
    await service.funnel(scope, { period: '30' });
    expect(state.computed).toBe(4);
    jest.advanceTimersByTime(ANALYTICS_CACHE_MS + 1);
    await service.funnel(scope, { period: '30' });
    expect(state.computed).toBe(5);
  });

  it('computes once for requests that arrive together', async () => {
    const { state, repository } = countingRepository();
    const service = new AnalyticsService(repository, {} as WelcomeOfferService);
    await Promise.all([1, 2, 3].map(() => service.funnel(scope, { period: '365' })));
    expect(state.computed).toBe(1);
  });
});
