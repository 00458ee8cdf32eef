import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import { databaseFaultReply } from './database-faults';
import { runTransaction } from './transaction';

/** A DataSource whose `transaction` hands `work` a fake manager, counting the transactions begun. */
function fakeDataSource(): { dataSource: DataSource; begun: () => number } {
  let begun = 0;
  const manager = {} as EntityManager;
  const dataSource = {
    transaction: async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
      begun += 1;
      return work(manager);
    },
  } as unknown as DataSource;
  return { dataSource, begun: () => begun };
}

const conflict = (code: string) =>
  new QueryFailedError(
    'UPDATE members SET name = $1',
    ['Ann'],
    Object.assign(new Error('deadlock detected'), { code }),
  );

describe('runTransaction', () => {
  it('returns what the work returns, in one transaction', async () => {
    const { dataSource, begun } = fakeDataSource();
    await expect(runTransaction(dataSource, async () => 42)).resolves.toBe(42);
    expect(begun()).toBe(1);
  });

  it.each(['40P01', '40001'])(
    'runs the work once more after a %s and returns its result',
    async (code) => {
      const { dataSource, begun } = fakeDataSource();
      const work = jest.fn().mockRejectedValueOnce(conflict(code)).mockResolvedValueOnce('done');
      await expect(runTransaction(dataSource, work)).resolves.toBe('done');
      expect(work).toHaveBeenCalledTimes(2);
      expect(begun()).toBe(2);
    },
  );

  it("gives up after the second conflict, which the API answers 409 'Please try again'", async () => {
    const { dataSource } = fakeDataSource();
    const work = jest.fn().mockRejectedValue(conflict('40P01'));
    const failure = await runTransaction(dataSource, work).catch((error: unknown) => error);
    expect(work).toHaveBeenCalledTimes(2);
    expect(databaseFaultReply(failure)).toEqual({ statusCode: 409, message: 'Please try again' });
  });

  it('does not retry any other failure', async () => {
    const { dataSource } = fakeDataSource();
    const duplicate = new QueryFailedError(
      'INSERT',
      [],
      Object.assign(new Error('duplicate key'), { code: '23505' }),
    );
    const work = jest.fn().mockRejectedValue(duplicate);
    await expect(runTransaction(dataSource, work)).rejects.toBe(duplicate);
    expect(work).toHaveBeenCalledTimes(1);
  });
});
