/** A Mindbody client as the Public API v6 returns it (the fields Grove reads). */
export interface SandboxClient {
  Id: string;
  UniqueId: number;
  FirstName: string;
  LastName: string;
  Email: string;
  Status: 'Active' | 'Inactive';
  Active: boolean;
  IsProspect: boolean;
  /** Free text naming who referred the client (Mindbody's ReferredBy), or null. */
  ReferredBy: string | null;
  LastModifiedDateTime: string;
}

const FIRST = ['Olivia', 'Liam', 'Mia', 'Noah', 'Isla', 'Jack', 'Grace', 'Leo', 'Ava', 'Oscar', 'Chloe', 'Lucas'];
const LAST = ['Smith', 'Nguyen', 'Patel', 'Brown', 'Wilson', 'Taylor', 'Chen', 'Kelly', 'Walker', 'Harris', 'Martin'];

/**
 * Deterministic clients for site -99: the same `count` always gives the same people. Every 10th
 * client is a prospect referred by an earlier active client (by full name, as Mindbody stores it).
 * @param count number of clients (1 to 50,000)
 * @param epoch base time of LastModifiedDateTime (client n was modified n minutes after it)
 */
export function seedClients(count: number, epoch = Date.UTC(2026, 0, 1)): SandboxClient[] {
  const clients: SandboxClient[] = [];
  for (let n = 1; n <= count; n++) {
    const first = FIRST[n % FIRST.length];
    const last = LAST[Math.floor(n / FIRST.length) % LAST.length];
    const isProspect = n % 10 === 0;
    const referrer = isProspect && n > 10 ? clients[n - 6] : undefined;
    clients.push({
      Id: String(100000 + n),
      UniqueId: 100000 + n,
      FirstName: first,
      LastName: `${last}`,
      Email: `${first}.${last}.${n}@sandbox.example.com`.toLowerCase(),
      Status: 'Active',
      Active: true,
      IsProspect: isProspect,
      ReferredBy: referrer ? `${referrer.FirstName} ${referrer.LastName}` : null,
      LastModifiedDateTime: new Date(epoch + n * 60_000).toISOString(),
    });
  }
  return clients;
}
