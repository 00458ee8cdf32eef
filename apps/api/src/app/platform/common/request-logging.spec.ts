import { logsRequests, prettyLogs } from './request-logging';

describe('logsRequests', () => {
  it.each(['trace', 'debug', 'info'])(
    'installs request logging at %s (each request writes a line)',
    (level) => {
      expect(logsRequests(level)).toBe(true);
    },
  );

  it.each(['warn', 'error', 'fatal', 'silent'])(
    'leaves it out at %s, where it would write nothing',
    (level) => {
      expect(logsRequests(level)).toBe(false);
    },
  );
});

describe('prettyLogs', () => {
  const production = { logPretty: false, nodeEnv: 'production' };

  it('writes JSON lines in production, also on a terminal (`node dist/apps/api/main.js`)', () => {
    expect(prettyLogs(production, true, false)).toBe(false);
  });

  it('writes human-readable lines with LOG_PRETTY=true (`npm start`), terminal or not', () => {
    expect(prettyLogs({ ...production, logPretty: true }, false, false)).toBe(true);
    expect(prettyLogs({ ...production, logPretty: true }, true, false)).toBe(true);
  });

  it('writes human-readable lines in development on a terminal only', () => {
    expect(prettyLogs({ logPretty: false, nodeEnv: 'development' }, true, false)).toBe(true);
    expect(prettyLogs({ logPretty: false, nodeEnv: 'development' }, false, false)).toBe(false);
  });

  it('keeps JSON lines when the logs go to a given destination (tests read them)', () => {
    expect(prettyLogs({ logPretty: true, nodeEnv: 'development' }, true, true)).toBe(false);
  });
});
