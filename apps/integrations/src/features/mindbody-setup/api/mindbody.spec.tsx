import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { Schema } from '@grove/api-contract';
import { membersKey, prospectsKey } from '@grove/web-data-access';
import { createTestQueryClient, http, server } from '@grove/web-testing';
import { useMindbodyStatus } from './mindbody';

const status = (processState: string | null): Schema<'MindbodyStatus'> => ({
  stage: 3,
  siteId: '-99',
  discounts: null,
  processState,
  progress: null,
  lastSyncAt: null,
  invalidEmails: null,
});

/**
 * Fakes `GET /api/mindbody`: answers the queued statuses in turn (the last one repeats).
 * @returns how many times the status was asked for
 */
function fakeStatus(...statuses: Schema<'MindbodyStatus'>[]): { count: number } {
  const asked = { count: 0 };
  server.use(
    http.get('/mindbody', ({ response }) => {
      asked.count += 1;
      return response(200).json(statuses[Math.min(asked.count, statuses.length) - 1]);
    }),
  );
  return asked;
}

describe('useMindbodyStatus', () => {
  const watch = () => {
    const client = createTestQueryClient();
    const invalidated = jest.spyOn(client, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const hook = renderHook(() => useMindbodyStatus(5), { wrapper });
    return { hook, invalidated };
  };

  it('polls while an import runs and reloads members and prospective members once it ends', async () => {
    const asked = fakeStatus(
      status('running'),
      status('running'),
      status('completed 2026-11-21T05:00:00.000Z'),
    );
    const { hook, invalidated } = watch();
    await waitFor(() =>
      expect(hook.result.current.data?.processState).toBe('completed 2026-11-21T05:00:00.000Z'),
    );
    await waitFor(() => expect(invalidated).toHaveBeenCalledTimes(2));
    expect(invalidated.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      membersKey,
      prospectsKey,
    ]);
    expect(asked.count).toBe(3);
  });

  it('reloads nothing when no run was watched ending (a finished state on first load)', async () => {
    const asked = fakeStatus(status('completed 2026-11-21T05:00:00.000Z'));
    const { hook, invalidated } = watch();
    await waitFor(() => expect(hook.result.current.isSuccess).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(invalidated).not.toHaveBeenCalled();
    expect(asked.count).toBe(1);
  });
});
