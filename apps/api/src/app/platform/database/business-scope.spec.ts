import { jobScope, sessionScope, type BusinessScope } from './business-scope';
import type { ProspectsRepository } from '../../referral/prospects/prospects.repository';

describe('BusinessScope', () => {
  it("is the session's business, or the business a job names", () => {
    expect(sessionScope({ businessId: 'b-1' }).businessId).toBe('b-1');
    expect(jobScope({ businessId: 'b-2' }).businessId).toBe('b-2');
  });

  it('cannot be written by hand: a repository call without a scope does not type-check', () => {
    // Checked by `tsc` (the api typecheck): each line below must stay a type error.
    // @ts-expect-error an object literal is not a BusinessScope (the brand is missing)
    const literal: BusinessScope = { businessId: 'b-1' };
    type FindPage = ProspectsRepository['findPage'];
    // @ts-expect-error a bare business id is not a BusinessScope
    const bare: Parameters<FindPage>[0] = 'b-1';
    expect([literal, bare]).toHaveLength(2);
  });
});
