/**
 * The email key identifies a person within a business: the email in lower case with every dot
 * removed, so `Jo.E@X.com` and `joe@xcom` are one person (docs/product.md#entities "Email key", docs/product.md#validation "All database
 * paths ... have every dot removed first"). Surrounding white space is ignored. Grove stores only
 * addresses that are one plain mailbox (`mailboxOf`, email-address.ts: no comments, lists, groups
 * or display names), so the key is that of the mailbox that receives the mail.
 *
 * @param email an email address as typed
 * @returns the key used for duplicate checks (`members.email_key`)
 */
export function emailKey(email: string): string {
  return email.trim().toLowerCase().replace(/\./g, '');
}
