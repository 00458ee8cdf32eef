import { MindbodyAuthError } from '@grove/api-mindbody';
import type { MindbodyCrypto } from '../persistence/mindbody-crypto';
import type { MindbodyRunClient, MindbodySiteClient } from './mindbody-site-client';

/** The public calls of one run, as a fake builds them. */
type RunCalls = Pick<MindbodyRunClient, keyof MindbodyRunClient>;
import type { MindbodyIntegrationEntity } from '../persistence/mindbody-integration.entity';
import { MindbodySiteSession, TOKEN_MARGIN_MS } from './mindbody-site-session';
import type { MindbodyRepository } from '../persistence/mindbody.repository';

/** A fake Mindbody site: accepts only `valid` tokens; counts clients built, tokens issued, secrets opened. */
function setup(options: { storedToken?: string; expiresInMs?: number } = {}) {
  const valid = new Set<string>(['issued-1', 'issued-2', 'issued-3']);
  if (options.storedToken === 'stored') valid.add('stored');
  let issued = 0;
  const sent: string[] = [];
  const clients: RunCalls[] = [];
  const gateway = {
    issueStaffToken: jest.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      issued += 1;
      return { token: `issued-${issued}`, expiresAt: new Date(Date.now() + 3_600_000) };
    }),
    forSite: jest.fn(({ staffToken }: { staffToken: string }) => {
      let token = staffToken;
      const client: RunCalls = {
        clientsPage: async () => ({ clients: [], total: 0 }),
        autopayContracts: async () => {
          const used = token;
          sent.push(used);
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (!valid.has(used)) throw new MindbodyAuthError(401, 'DeniedAccess', 'expired');
          return [];
        },
        contracts: async () => ({ autopay: [], suspended: false }),
        firstPayment: async () => null,
        countVisits: async () => 0,
        updateAutopayAmount: async () => true,
        clientsByEmail: async () => [],
        requiredClientFields: async () => [],
        referralTypes: async () => [],
        addClient: async () => {
          throw new Error('not used');
        },
        useStaffToken: (next: string) => {
          token = next;
        },
      };
      clients.push(client);
      return client;
    }),
  };
  const crypto = {
    open: jest.fn((sealed: string) => sealed.replace(/^sealed:/, '')),
    seal: (plain: string) => `sealed:${plain}`,
  };
  const integrations = { saveStaffToken: jest.fn(async () => undefined) };
  const integration = {
    businessId: 'b1',
    siteId: '-99',
    username: 'owner',
    passwordEnc: 'sealed:secret',
    staffTokenEnc: options.storedToken ? `sealed:${options.storedToken}` : null,
    staffTokenExpiresAt: new Date(Date.now() + (options.expiresInMs ?? 3_600_000)),
  } as MindbodyIntegrationEntity;
  const session = new MindbodySiteSession(
    integration,
    gateway as unknown as MindbodySiteClient,
    crypto as unknown as MindbodyCrypto,
    integrations as unknown as MindbodyRepository,
  );
  return { session, gateway, crypto, integrations, integration, sent, valid };
}

const read = (session: MindbodySiteSession) =>
  session.call((client) => client.autopayContracts('100001'));

describe('MindbodySiteSession (one job run: one client, the token opened once)', () => {
  it('builds one client and opens the stored token once for all the calls of a run', async () => {
    const { session, gateway, crypto } = setup({ storedToken: 'stored' });
    await Promise.all(Array.from({ length: 20 }, () => read(session)));
    await read(session);
    expect(gateway.forSite).toHaveBeenCalledTimes(1);
    expect(crypto.open).toHaveBeenCalledTimes(1);
    expect(gateway.issueStaffToken).not.toHaveBeenCalled();
  });

  it('calls refused at once share one new token, stored sealed, and are each sent again once', async () => {
    const { session, gateway, integrations, integration, sent } = setup({
      storedToken: 'revoked',
    });
    await Promise.all(Array.from({ length: 8 }, () => read(session)));
    expect(gateway.issueStaffToken).toHaveBeenCalledTimes(1);
    // The issue counts among the run's Mindbody calls (the fourth argument).
    expect(gateway.issueStaffToken).toHaveBeenCalledWith(
      '-99',
      'owner',
      'secret',
      expect.any(Function),
    );
    expect(integrations.saveStaffToken).toHaveBeenCalledWith(
      'b1',
      'sealed:issued-1',
      expect.any(Date),
    );
    expect(integration.staffTokenEnc).toBe('sealed:issued-1');
    expect(gateway.forSite).toHaveBeenCalledTimes(1);
    expect(sent.filter((token) => token === 'revoked')).toHaveLength(8);
    expect(sent.filter((token) => token === 'issued-1')).toHaveLength(8);
  });

  it('issues a token before the first call when the stored one is about to expire, once for concurrent calls', async () => {
    const { session, gateway, crypto, sent } = setup({
      storedToken: 'stored',
      expiresInMs: TOKEN_MARGIN_MS - 1_000,
    });
    await Promise.all(Array.from({ length: 5 }, () => read(session)));
    expect(gateway.issueStaffToken).toHaveBeenCalledTimes(1);
    expect(sent).toEqual(Array.from({ length: 5 }, () => 'issued-1'));
    // Only the password was opened: the stale token was never needed.
    expect(crypto.open).toHaveBeenCalledTimes(1);
    expect(crypto.open).toHaveBeenCalledWith('sealed:secret');
  });

  it('fails a call refused again with the new token, and without credentials fails before calling', async () => {
    const { session, valid } = setup({ storedToken: 'revoked' });
    valid.clear();
    await expect(read(session)).rejects.toBeInstanceOf(MindbodyAuthError);

    const bare = setup();
    bare.integration.passwordEnc = null;
    await expect(read(bare.session)).rejects.toThrow('the integration has no stored credentials');
    expect(bare.gateway.forSite).not.toHaveBeenCalled();
  });
});
