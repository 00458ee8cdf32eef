import { logsRequests } from './request-logging';

describe('logsRequests', () => {
  it.each(['trace', 'debug', 'info'])('installs request logging at %s (each request writes a line)', (level) => {
    expect(logsRequests(level)).toBe(true);
  });

  it.each(['warn', 'error', 'fatal', 'silent'])('leaves it out at %s, where it would write nothing', (level) => {
    expect(logsRequests(level)).toBe(false);
  });
});
