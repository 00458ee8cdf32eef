import { normalizeIp } from '@nestjs/throttler';

/**
 * The client a limit or a digest counts an address as (issue 31): an IPv4 address as it is (an
 * IPv4-mapped IPv6 one as its IPv4), an IPv6 one as its /64 network ('2001:db8:1:2::/64'), since
 * one household or phone rotates through its /64 at will; anything else unchanged. @nestjs/throttler's
 * `normalizeIp`, the same the request throttlers use.
 * @param address `req.ip` as Express reports it (behind TRUST_PROXY: X-Forwarded-For's client)
 */
export function clientNetwork(address: string): string {
  return normalizeIp(address.trim().toLowerCase(), 64);
}
