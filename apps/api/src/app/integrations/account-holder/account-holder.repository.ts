import { businessLocale, type BusinessLocale } from '@grove/contracts';
import type { DataSource } from 'typeorm';

/** A person of the business that holds an outside account (a Mindbody site, a Stripe account). */
export interface AccountHolderOwner {
  email: string;
  firstName: string;
  businessName: string;
  /** How the business writes dates (its locale and time zone). */
  businessLocale: BusinessLocale;
}

/**
 * The accounts of business `businessId`, oldest first, to tell them about their integration (a
 * claim on their Mindbody site or Stripe account by another Grove account, held bills). Reads one
 * business by id: the caller found it as the holder of the account, never from a request.
 */
export async function accountHolderOwners(
  dataSource: DataSource,
  businessId: string,
): Promise<AccountHolderOwner[]> {
  const rows = (await dataSource.query(
    `SELECT u.email, u.first_name, b.name, b.country, b.time_zone
     FROM users u JOIN businesses b ON b.id = u.business_id
     WHERE u.business_id = $1 ORDER BY u.created_at`,
    [businessId],
  )) as {
    email: string;
    first_name: string;
    name: string;
    country: string;
    time_zone: string | null;
  }[];
  return rows.map((row) => ({
    email: row.email,
    firstName: row.first_name,
    businessName: row.name,
    businessLocale: businessLocale(row.country, row.time_zone),
  }));
}
