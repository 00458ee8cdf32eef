/**
 * The email key identifies a person within a business: the email in lower case with every dot
 * removed, so `Jo.E@X.com` and `joe@xcom` are one person (docs/product.md#entities "Email key", docs/product.md#validation "All database
 * paths ... have every dot removed first"). Surrounding white space is ignored.
 *
 * @param email an email address as typed
 * @returns the key used for duplicate checks (`members.email_key`)
 */
export function emailKey(email: string): string {
  return email.trim().toLowerCase().replace(/\./g, '');
}
