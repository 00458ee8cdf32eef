import MailChecker from 'mailchecker';

/** mailchecker's list of throwaway email domains (about 56,000, kept up to date by its maintainers). */
const DISPOSABLE_DOMAINS: ReadonlySet<string> = MailChecker.blacklist();

/**
 * True when the email's domain, or a parent domain of it, is on mailchecker's list of disposable
 * (throwaway) email services, e.g. `a@mailinator.com`, `a@x.mailinator.com`. Only the domain is
 * looked at (the address itself is validated elsewhere); the lookup is a few `Set` reads, the same
 * for every address.
 * @param email an address as typed
 */
export function isDisposableEmail(email: string): boolean {
  let domain = email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
  while (domain) {
    if (DISPOSABLE_DOMAINS.has(domain)) return true;
    const dot = domain.indexOf('.');
    if (dot < 0) return false;
    domain = domain.slice(dot + 1);
  }
  return false;
}
