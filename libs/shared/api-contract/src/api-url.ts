import type { paths } from './generated/schema';

/**
 * The address of a contract path for the browser to open itself (a download link, an image's
 * `src`), e.g. `apiUrl('/members/{memberId}/referral-link/qr.svg', { memberId })` →
 * `/api/members/<id>/referral-link/qr.svg`. Each path parameter is URL-encoded.
 * @throws Error when a `{name}` of the path has no value
 */
export function apiUrl(path: keyof paths, pathParams: Record<string, string> = {}): string {
  return `/api${path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = pathParams[name];
    if (value === undefined) throw new Error(`apiUrl: no value for {${name}} of ${path}`);
    return encodeURIComponent(value);
  })}`;
}
