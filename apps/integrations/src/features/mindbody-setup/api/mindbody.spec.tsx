import { fetchFake, server } from '@grove/web-testing';
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { MindbodyStatus } from '@grove/contracts';
import { membersKey, prospectsKey } from '@grove/web-data-access';
import { useMindbodyStatus } from './mindbody';

const status = (processState: string | null): MindbodyStatus => ({
  stage: 3,
  siteId: '-99',
  discounts: null,
  processState,
  progress: null,
  lastSyncAt: null,
  invalidEmails: null,
});
const reply = (body: unknown) => ({
  ok: true,
  status: 200,
  text: async () => JSON.stringify(body),
});

describe('useMindbodyStatus', () => {
  const fetchMock = jest.fn();
  beforeEach(() => {
    fetchMock.mockReset();
    server.use(fetchFake(fetchMock));
  });

  const watch = () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const invalidated = jest.spyOn(client, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const hook = renderHook(() => useMindbodyStatus(5), { wrapper });
    return { hook, invalidated };
  };

  it('polls while an import runs and reloads members and prospective members once it ends', async () => {
    fetchMock
      .mockResolvedValueOnce(reply(status('running')))
      .mockResolvedValueOnce(reply(status('running')))
      .mockResolvedValue(reply(status('completed 2026-11-21T05:00:00.000Z')));
    const { hook, invalidated } = watch();
    await waitFor(() =>
      expect(hook.result.current.data?.processState).toBe('completed 2026-11-21T05:00:00.000Z'),
    );
    await waitFor(() => expect(invalidated).toHaveBeenCalledTimes(2));
    expect(invalidated.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      membersKey,
      prospectsKey,
    ]);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('reloads nothing when no run was watched ending (a finished state on first load)', async () => {
    fetchMock.mockResolvedValue(reply(status('completed 2026-11-21T05:00:00.000Z')));
    const { hook, invalidated } = watch();
    await waitFor(() => expect(hook.result.current.isSuccess).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(invalidated).not.toHaveBeenCalled();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
