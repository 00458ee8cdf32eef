import { createTestApp, type TestApp } from '../../../../test/test-app';
import { MembershipEvents, type MembershipEventMap } from './membership-events';

/**
 * Every event membership announces has its listener in the running API (docs/architecture.md#api-areas):
 * an event nobody listens to would silently send no email or give no link.
 */
describe('MembershipEvents in the running API (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has the listeners the areas above register: links for new members and the member emails', () => {
    const events = t.app.get(MembershipEvents);
    const expected: Record<keyof MembershipEventMap, number> = {
      'members.added': 1,
      'members.bulk-added': 1,
      'friend.joined': 1,
      'branch.approved': 1,
      'branch.counting': 1,
      'branch.ended': 1,
    };
    const actual = Object.fromEntries(
      Object.keys(expected).map((name) => [
        name,
        events.listenerCount(name as keyof MembershipEventMap),
      ]),
    );
    expect(actual).toEqual(expected);
  });
});
