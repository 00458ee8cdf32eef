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

/** A MindbodyRunClient whose fetch answers `reply(url)` as JSON; the URLs asked are kept. */
function runClient(reply: (url: URL) => unknown): { client: MindbodyRunClient; asked: URL[] } {
  const asked: URL[] = [];
  const fetch = (input: string | URL | Request): Promise<Response> => {
    const url = new URL(String(input));
    asked.push(url);
    return Promise.resolve(new Response(JSON.stringify(reply(url)), { status: 200 }));
  };
  const mindbody = new MindbodyClient({
    baseUrl: 'https://mindbody.test/public/v6',
    apiKey: 'key',
    siteId: '-99',
    staffToken: 'token',
    fetch: fetch as typeof globalThis.fetch,
  });
  return { client: new MindbodyRunClient(mindbody), asked };
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
      autopay: [{ clientContractId: '8', amountCents: 5_950 }],
      suspended: false,
    });
    expect(await contracts([contract(7, 'Inactive')])).toEqual({ autopay: [], suspended: false });
  });
});
