import { survivingStrayDatabaseFaults } from './stray-database-faults';

describe('survivingStrayDatabaseFaults', () => {
  const warnings: string[] = [];
  const logger = { log: jest.fn(), error: jest.fn(), warn: (m: string) => warnings.push(m) };
  let remove: () => void;
  beforeEach(() => {
    warnings.length = 0;
    remove = survivingStrayDatabaseFaults(logger);
  });
  afterEach(() => remove());

  it('logs a database-unavailable rejection (pg-boss failing a job while PostgreSQL stops) and keeps going', () => {
    const fault = Object.assign(new Error('the database system is shutting down'), {
      code: '57P03',
    });
    expect(() => process.emit('unhandledRejection', fault, Promise.resolve())).not.toThrow();
    expect(warnings).toEqual([
      'database unavailable in a background call: the database system is shutting down',
    ]);
  });

  it('lets any other rejection end the process as before', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(() => process.emit('unhandledRejection', bug, Promise.resolve())).toThrow(bug);
    expect(warnings).toEqual([]);
  });
});
