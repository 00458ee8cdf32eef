import {
  jobActor,
  jobScope,
  sessionScope,
  webhookScope,
  type BusinessScope,
} from './business-scope';
import type { ProspectsRepository } from '../../referral/prospects/prospects.repository';

describe('BusinessScope', () => {
  it("is the session's business, or the business a job names", () => {
    expect(sessionScope({ businessId: 'b-1' }).businessId).toBe('b-1');
    expect(jobScope({ businessId: 'b-2' }).businessId).toBe('b-2');
  });

  it("carries its author through a job's payload: staff, Mindbody, or Grove", () => {
    const staff = jobScope({
      businessId: 'b-1',
      ...jobActor(sessionScope({ businessId: 'b-1', userId: 'u-1' })),
    });
    expect(staff.actor).toEqual({ kind: 'staff', userId: 'u-1' });
    const mindbody = jobScope({
      businessId: 'b-1',
      ...jobActor(webhookScope({ businessId: 'b-1' })),
    });
    expect(mindbody.actor).toEqual({ kind: 'mindbody' });
    expect(jobScope({ businessId: 'b-1' }).actor).toBeUndefined();
    // A payload naming an unknown kind (an old or tampered job) acts as Grove, never as staff.
    expect(jobScope({ businessId: 'b-1', actorKind: 'staff' as never }).actor).toBeUndefined();
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
