import {
  MindbodyClient,
  type ClientContract,
  type ClientPurchaseRecord,
  type GetClientPurchasesResponse,
} from '@grove/api-mindbody';
import { FIRST_PAYMENT_SEARCH_FROM, MindbodyRunClient } from './mindbody-site-client';

/** A purchase of `amount` dollars on `at`, returned or not. */
const purchase = (at: string, amount: number, returned = false): ClientPurchaseRecord => ({
  Sale: {
    Id: 1,
    SaleDate: at.slice(0, 10),
    SaleDateTime: at,
    OriginalSaleDateTime: at,
    ClientId: '100001',
    LocationId: 1,
    Payments: [],
  },
  Description: 'Monthly Unlimited',
  AccountPayment: false,
  Price: amount,
  AmountPaid: amount,
  Discount: 0,
  Tax: 0,
  Returned: returned,
  Quantity: 1,
});

/** A MindbodyRunClient whose fetch answers `reply(url)` as JSON; the URLs asked and the bodies sent are kept. */
function runClient(reply: (url: URL) => unknown): {
  client: MindbodyRunClient;
  asked: URL[];
  bodies: unknown[];
} {
  const asked: URL[] = [];
  const bodies: unknown[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    asked.push(url);
    if (typeof init?.body === 'string') bodies.push(JSON.parse(init.body));
    return Promise.resolve(new Response(JSON.stringify(reply(url)), { status: 200 }));
  };
  const mindbody = new MindbodyClient({
    baseUrl: 'https://mindbody.test/public/v6',
    apiKey: 'key',
    siteId: '-99',
    staffToken: 'token',
    fetch: fetch as typeof globalThis.fetch,
  });
  return { client: new MindbodyRunClient(mindbody), asked, bodies };
}

describe('MindbodyRunClient: first payment and suspension (docs/product.md#branch-qualification)', () => {
  it('pages GET /client/clientpurchases from 2000 to `until` and takes the earliest item paid and not returned', async () => {
    // Page 1: 200 items, none counting (returned, or nothing paid); page 2: two paid ones.
    const first: ClientPurchaseRecord[] = [
      purchase('2026-01-02T09:00:00Z', 59, true),
      ...Array.from({ length: 199 }, () => purchase('2026-01-03T09:00:00Z', 0)),
    ];
    const second = [purchase('2026-03-01T09:00:00Z', 59), purchase('2026-02-01T09:00:00Z', 10)];
    const { client, asked } = runClient((url): GetClientPurchasesResponse => {
      const offset = Number(url.searchParams.get('request.offset'));
      const items = offset === 0 ? first : second;
      return {
        PaginationResponse: {
          RequestedLimit: 200,
          RequestedOffset: offset,
          PageSize: items.length,
          TotalResults: 202,
        },
        Purchases: items,
      };
    });
    const until = new Date('2026-11-24T00:00:00Z');

    expect(await client.firstPayment('100001', until)).toEqual(new Date('2026-02-01T09:00:00Z'));

    expect(asked.map((url) => url.pathname)).toEqual([
      '/public/v6/client/clientpurchases',
      '/public/v6/client/clientpurchases',
    ]);
    expect(Object.fromEntries(asked[0].searchParams)).toEqual({
      'request.clientId': '100001',
      'request.startDate': FIRST_PAYMENT_SEARCH_FROM.toISOString(),
      'request.endDate': until.toISOString(),
      'request.limit': '200',
      'request.offset': '0',
    });
    expect(asked[1].searchParams.get('request.offset')).toBe('200');
  });

  it('answers null after one request for a client who has paid nothing', async () => {
    const { client, asked } = runClient(() => ({
      PaginationResponse: { RequestedLimit: 200, RequestedOffset: 0, PageSize: 0, TotalResults: 0 },
      Purchases: [],
    }));
    expect(await client.firstPayment('100002', new Date())).toBeNull();
    expect(asked).toHaveLength(1);
  });

  it('reads a membership as suspended when no contract’s autopay runs and one is Suspended', async () => {
    const contract = (id: number, status: ClientContract['AutopayStatus']) => ({
      Id: id,
      AutopayStatus: status,
      NormalAutoPay: 59.5,
    });
    const contracts = (list: unknown[]) =>
      runClient(() => ({
        PaginationResponse: {
          RequestedLimit: 200,
          RequestedOffset: 0,
          PageSize: list.length,
          TotalResults: list.length,
        },
        Contracts: list,
      })).client.contracts('100001');
    expect(await contracts([contract(7, 'Suspended')])).toEqual({ autopay: [], suspended: true });
    expect(await contracts([contract(7, 'Suspended'), contract(8, 'Active')])).toEqual({
      // No upcoming autopay listed: NormalAutoPay is the amount, and there is no date to write from.
      autopay: [
        {
          clientContractId: '8',
          amountCents: 5_950,
          nextAutopayDate: null,
          productId: null,
          chargeCents: null,
        },
      ],
      suspended: false,
    });
    expect(await contracts([contract(7, 'Inactive')])).toEqual({ autopay: [], suspended: false });
  });

  it('writes a discount as UpdateClientContractAutopaysRequest: the next autopay date, the membership item of a multi-item contract with tax, never a ClientId', async () => {
    const event = (ProductId: number, Subtotal: number, Tax: number, ScheduleDate: string) => ({
      ClientContractId: 9,
      ProductId,
      Subtotal,
      Tax,
      ChargeAmount: Math.round((Subtotal + Tax) * 100) / 100,
      PaymentMethod: 'CreditCard',
      ScheduleDate,
    });
    const multi = {
      Id: 9,
      AutopayStatus: 'Active',
      NormalAutoPay: 99,
      // Listed out of order: the next date is 1 Dec; the membership (89) outweighs the towels (10).
      UpcomingAutopayEvents: [
        event(30, 89, 8.9, '2027-01-01T00:00:00Z'),
        event(77, 10, 1, '2026-12-01T00:00:00Z'),
        event(30, 89, 8.9, '2026-12-01T00:00:00Z'),
      ],
    };
    const { client, bodies } = runClient((url) =>
      url.pathname.endsWith('/clientcontracts')
        ? {
            PaginationResponse: {
              RequestedLimit: 200,
              RequestedOffset: 0,
              PageSize: 1,
              TotalResults: 1,
            },
            Contracts: [multi],
          }
        : { Id: 3, Name: 'Monthly Unlimited' },
    );
    const { autopay } = await client.contracts('100001');
    expect(autopay).toEqual([
      {
        clientContractId: '9',
        amountCents: 8_900,
        nextAutopayDate: '2026-12-01T00:00:00Z',
        productId: 30,
        // Mindbody will charge both items with their tax on 1 Dec.
        chargeCents: 10_890,
      },
    ]);
    expect(await client.updateAutopayAmount(autopay[0], 8_400)).toBe(true);
    expect(bodies).toEqual([
      { ClientContractId: 9, AutopayStartDate: '2026-12-01T00:00:00Z', ProductId: 30, Amount: 84 },
    ]);
    // Nothing to start from: nothing is sent.
    expect(await client.updateAutopayAmount({ ...autopay[0], nextAutopayDate: null }, 8_400)).toBe(
      false,
    );
    expect(bodies).toHaveLength(1);
  });
});
