import { clientNetwork } from './client-network';

describe('clientNetwork (issue 31: one client per IPv6 /64)', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:DB8:5:6:FFFF:1:2:3', '2001:db8:5:6::/64'],
    ['2001:db8:5:6::a1', '2001:db8:5:6::/64'],
    ['2001:db8:5:7::a1', '2001:db8:5:7::/64'],
    ['::1', '::1'],
    ['not an address', 'not an address'],
  ])('%s counts as %s', (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });
});
