import type {
  Client,
  ClientContract,
  ClientPurchaseRecord,
  UpcomingAutopayEvent,
} from '@grove/api-mindbody';

/** The sandbox's site ID (Mindbody's public sandbox site is -99 too). */
export const SANDBOX_SITE_ID = -99;
/**
 * Referral types of the site (`GET /client/clientreferraltypes`): the only values `ReferredBy`
 * takes, as on a real site (a label of how the client heard of the business, never a person).
 */
export const SANDBOX_REFERRAL_TYPES = ['Friend', 'Google', 'Instagram', 'Walk-in', 'Flyer'];
/** The add-on some memberships bill beside the membership itself (a multi-item contract). */
export const SANDBOX_ADD_ON = { ProductId: 990, Subtotal: 10 };
/** Tax rate of the memberships that are taxed. */
export const SANDBOX_TAX_RATE = 0.1;
/** Monthly autopay amounts in dollars the seeded memberships use (49–129). */
export const SANDBOX_AUTOPAY_AMOUNTS = [49, 54.95, 59, 69, 79.5, 89, 99, 109.95, 119, 129];
/** Membership plans: contract template id and name. */
export const SANDBOX_PLANS = [
  { ContractID: 1, ContractName: 'Monthly Unlimited' },
  { ContractID: 2, ContractName: 'Monthly Off-Peak' },
  { ContractID: 3, ContractName: 'Monthly Classes x8' },
];

const FIRST = [
  'Olivia',
  'Liam',
  'Mia',
  'Noah',
  'Isla',
  'Jack',
  'Grace',
  'Leo',
  'Ava',
  'Oscar',
  'Chloe',
  'Lucas',
  'Amelia',
  'Henry',
  'Zoe',
  'William',
  'Ruby',
  'Thomas',
  'Ella',
  'James',
  'Sophie',
  'Ethan',
  'Harper',
  'Max',
  'Layla',
  'Archie',
  'Evie',
  'Charlie',
  'Willow',
  'Hudson',
  'Matilda',
  'Harrison',
  'Ivy',
  'Theo',
  'Aria',
  'Finn',
  'Sienna',
  'Levi',
  'Frankie',
  'Hugo',
  'Alice',
  'Elijah',
  'Hazel',
  'Mason',
  'Lily',
  'Xavier',
  'Maya',
  'Samuel',
  'Poppy',
  'Arlo',
  'Georgia',
  'Felix',
  'Eliza',
  'Jasper',
  'Audrey',
  'Kai',
  'Billie',
  'Ryan',
  'Daisy',
  'Ari',
];
const LAST = [
  'Smith',
  'Nguyen',
  'Patel',
  'Brown',
  'Wilson',
  'Taylor',
  'Chen',
  'Kelly',
  'Walker',
  'Harris',
  'Martin',
  'Jones',
  'Williams',
  'Anderson',
  'Thompson',
  'White',
  'Lee',
  'Ryan',
  'King',
  'Campbell',
  'Robinson',
  'Young',
  'Wright',
  'Scott',
  'Green',
  'Hall',
  'Clarke',
  'Mitchell',
  'Evans',
  'Turner',
  'Cooper',
  'Morris',
  'Wood',
  'Ward',
  'Hughes',
  'Edwards',
  'Murphy',
  'Collins',
  'Stewart',
  'Baker',
  'Kennedy',
  'Gray',
  'Russell',
  'Bell',
  'Murray',
  'Ross',
  'Price',
  'Bennett',
  'Reid',
  'Fraser',
  'Hunter',
  'Marshall',
  'Graham',
  'Watson',
  'Shaw',
  'Ellis',
  'Hayes',
  'Fisher',
  'Lane',
  'Burke',
  'Doyle',
  'Byrne',
  'Quinn',
  'Walsh',
  'Sutton',
  'Barnes',
  'Tran',
  'Le',
  'Pham',
  'Singh',
  'Kaur',
  'Wong',
];

/** A deterministic pseudo-random generator (mulberry32): the same seed gives the same sequence in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Seed settings. */
export interface SeedOptions {
  /** The site's ID (ClientContract.SiteId; default -99). */
  siteId?: number;
  /** Number of clients, 1 to 50,000. */
  clientCount: number;
  /** PRNG seed (default 4). */
  seed?: number;
  /** Base time (ms) of LastModifiedDateTime: client n was last modified n minutes after it (default 2026-01-01Z). */
  epoch?: number;
}

/** Seeded data of the site: clients in UniqueId order, each active member's contract, what they paid. */
export interface SeedData {
  clients: Client[];
  /** Contracts by client Id. */
  contracts: Map<string, ClientContract[]>;
  /** Purchases by client Id, oldest sale first (clients who have paid nothing have none). */
  purchases: Map<string, ClientPurchaseRecord[]>;
}

/** First Sale.Id; sale ids increase from here. */
export const FIRST_SALE_ID = 900_001;
/** Share of the seeded members with a membership who have paid for it (the others have not paid yet). */
export const SANDBOX_PAID_SHARE = 0.8;

/** First ClientContract.Id; contract ids increase from here. */
export const FIRST_CONTRACT_ID = 500_001;
/** UniqueId of client 1 (the system's number, never changes). */
export const FIRST_CLIENT_ID = 100_001;
/** What a client's `Id` (the business's barcode) is apart from its UniqueId when seeded or added. */
export const BARCODE_OFFSET = 100_000;
/** The seeded `Id` of a client: its barcode, UniqueId + {@link BARCODE_OFFSET}, as a string. */
export const barcodeOf = (uniqueId: number): string => String(uniqueId + BARCODE_OFFSET);

/**
 * Deterministic clients and contracts of a site: the same options always give the same people,
 * shaped as real sites are. Each client's `Id` (its barcode) differs from its `UniqueId`. About
 * 10% are prospects (IsProspect, Status 'Non-Member', no contract); of the members about 90% are
 * 'Active' with one membership contract whose autopay is 49–129 dollars before tax, the rest
 * 'Expired'; about 3% of the clients are inactive profiles (`Active: false`, Status 'Expired'),
 * which `GET /client/clients` lists only with `request.includeInactive=true`. About 35% carry a
 * `ReferredBy`, always one of {@link SANDBOX_REFERRAL_TYPES} (a label, never a person). About
 * 15% of the contracts also bill an add-on ({@link SANDBOX_ADD_ON}: a multi-item contract) and
 * about 25% are taxed ({@link SANDBOX_TAX_RATE}: `ChargeAmount` = `Subtotal` + `Tax`).
 * @throws RangeError when clientCount is not an integer from 1 to 50,000
 */
export function seedSite({
  clientCount,
  seed = 4,
  epoch = Date.UTC(2026, 0, 1),
  siteId = SANDBOX_SITE_ID,
}: SeedOptions): SeedData {
  if (!Number.isInteger(clientCount) || clientCount < 1 || clientCount > 50_000) {
    throw new RangeError(`The sandbox seeds 1 to 50,000 clients, not ${clientCount}`);
  }
  const count = clientCount;
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const clients: Client[] = [];
  for (let n = 1; n <= count; n++) {
    const FirstName = pick(FIRST);
    const LastName = pick(LAST);
    const isProspect = random() < 0.1;
    const inactive = !isProspect && random() < 0.03;
    const status = isProspect ? 'Non-Member' : inactive || random() >= 0.9 ? 'Expired' : 'Active';
    const time = new Date(epoch + n * 60_000).toISOString();
    const uniqueId = FIRST_CLIENT_ID - 1 + n;
    clients.push({
      Id: barcodeOf(uniqueId),
      UniqueId: uniqueId,
      FirstName,
      LastName,
      Email: `${FirstName}.${LastName}.${n}@sandbox.example.com`.toLowerCase(),
      MobilePhone: `04${String(Math.floor(random() * 1e8)).padStart(8, '0')}`,
      Status: status,
      Active: !inactive,
      IsProspect: isProspect,
      ReferredBy: random() < 0.35 ? pick(SANDBOX_REFERRAL_TYPES) : null,
      CreationDate: time,
      LastModifiedDateTime: time,
    });
  }
  const contracts = new Map<string, ClientContract[]>();
  let contractId = FIRST_CONTRACT_ID;
  for (const client of clients) {
    if (client.Status !== 'Active') continue;
    const plan = pick(SANDBOX_PLANS);
    const amount = pick(SANDBOX_AUTOPAY_AMOUNTS);
    const addOn = random() < 0.15;
    const taxRate = random() < 0.25 ? SANDBOX_TAX_RATE : 0;
    contracts.set(client.Id, [
      membershipContract(
        contractId++,
        client,
        plan,
        amount,
        Date.parse(client.CreationDate),
        siteId,
        { addOn, taxRate },
      ),
    ]);
  }
  return { clients, contracts, purchases: seedPurchases(contracts, seed) };
}

/**
 * What the seeded members paid, drawn from a PRNG of its own (so the clients and contracts above
 * are the same as before purchases existed): about {@link SANDBOX_PAID_SHARE} of the members with
 * a contract bought it at its start date (the contract's first payment) and about half of those
 * also paid the first monthly autopay; the others have paid nothing yet.
 */
function seedPurchases(
  contracts: Map<string, ClientContract[]>,
  seed: number,
): Map<string, ClientPurchaseRecord[]> {
  const random = seededRandom(seed ^ 0x5a1e5);
  const purchases = new Map<string, ClientPurchaseRecord[]>();
  let saleId = FIRST_SALE_ID;
  for (const [clientId, [contract]] of contracts) {
    if (random() >= SANDBOX_PAID_SHARE) continue;
    const records = [
      purchaseRecord(
        saleId++,
        clientId,
        contract.ContractName,
        contract.FirstAutoPay,
        contract.StartDate,
      ),
    ];
    const firstAutopay = contract.UpcomingAutopayEvents[0];
    if (random() < 0.5 && firstAutopay)
      records.push(
        purchaseRecord(
          saleId++,
          clientId,
          `${contract.ContractName} (autopay)`,
          firstAutopay.ChargeAmount,
          firstAutopay.ScheduleDate,
        ),
      );
    purchases.set(clientId, records);
  }
  return purchases;
}

/**
 * One paid item of its own sale, paid by credit card in full (`AmountPaid` = `amount` dollars).
 * @param at the sale's time (ISO)
 */
export function purchaseRecord(
  saleId: number,
  clientId: string,
  description: string,
  amount: number,
  at: string,
): ClientPurchaseRecord {
  const day = `${at.slice(0, 10)}T00:00:00.000Z`;
  return {
    Sale: {
      Id: saleId,
      SaleDate: day,
      SaleDateTime: at,
      OriginalSaleDateTime: at,
      ClientId: clientId,
      LocationId: 1,
      Payments: [{ Id: saleId, Amount: amount, Method: 1, Type: 'CreditCard' }],
    },
    Description: description,
    AccountPayment: false,
    Price: amount,
    AmountPaid: amount,
    Discount: 0,
    Tax: 0,
    Returned: false,
    Quantity: 1,
  };
}

/** Dollars rounded to cents. */
const cents = (dollars: number) => Math.round(dollars * 100) / 100;

/**
 * One upcoming autopay of a product: `Subtotal` dollars, its tax at `taxRate`, `ChargeAmount` the
 * two together.
 */
export function autopayEvent(
  clientContractId: number,
  productId: number,
  subtotal: number,
  taxRate: number,
  scheduleDate: string,
): UpcomingAutopayEvent {
  const Tax = cents(subtotal * taxRate);
  return {
    ClientContractId: clientContractId,
    ChargeAmount: cents(subtotal + Tax),
    Subtotal: subtotal,
    Tax,
    PaymentMethod: 'CreditCard',
    ScheduleDate: scheduleDate,
    ProductId: productId,
  };
}

/**
 * A month-to-month membership contract with autopay `amount` dollars (before tax) and its next
 * three monthly autopays (from the first of the month after `startMs`); with `addOn` it also bills
 * {@link SANDBOX_ADD_ON} each month (two products), with `taxRate` each item is taxed.
 * NormalAutoPay is the total before tax of the items (docs/decisions/mindbody-contract.md).
 */
export function membershipContract(
  id: number,
  client: Pick<Client, 'UniqueId'>,
  plan: { ContractID: number; ContractName: string },
  amount: number,
  startMs: number,
  siteId = SANDBOX_SITE_ID,
  extras: { addOn?: boolean; taxRate?: number } = {},
): ClientContract {
  const start = new Date(startMs);
  const ProductId = plan.ContractID * 10;
  const taxRate = extras.taxRate ?? 0;
  const UpcomingAutopayEvents: UpcomingAutopayEvent[] = [1, 2, 3].flatMap((month) => {
    const date = new Date(
      Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + month, 1),
    ).toISOString();
    const membership = autopayEvent(id, ProductId, amount, taxRate, date);
    return extras.addOn
      ? [
          membership,
          autopayEvent(id, SANDBOX_ADD_ON.ProductId, SANDBOX_ADD_ON.Subtotal, taxRate, date),
        ]
      : [membership];
  });
  const normal = cents(amount + (extras.addOn ? SANDBOX_ADD_ON.Subtotal : 0));
  return {
    Id: id,
    ContractID: plan.ContractID,
    ContractName: plan.ContractName,
    PayerClientId: client.UniqueId,
    SiteId: siteId,
    AgreementDate: start.toISOString(),
    StartDate: start.toISOString(),
    EndDate: null,
    TerminationDate: null,
    AutopayStatus: 'Active',
    AutoRenewing: true,
    IsMonthToMonth: true,
    FirstAutoPay: normal,
    LastAutoPay: normal,
    NormalAutoPay: normal,
    UpcomingAutopayEvents,
  };
}
