import { levels } from 'pino';

/**
 * Whether request logging (pino-http, under nestjs-pino) is installed at this LOG_LEVEL. pino-http
 * logs each request at 'info' (its default level, whatever the outcome), so at 'warn' and above it
 * would write nothing, yet still cost work on every request
 * (docs/decisions/request-logging-at-info-only.md). Without it, logs written during a request
 * carry no request fields; the exception filter names the request in its own error log.
 */
export function logsRequests(logLevel: string): boolean {
  const value = levels.values[logLevel];
  return value !== undefined && value <= levels.values['info'];
}

/**
 * Whether log lines go through pino-pretty (human-readable, one line each) instead of JSON lines:
 * when LOG_PRETTY is true (`npm start` sets it), or in development on a terminal; never when the
 * logs are written to a given destination (tests read them as JSON).
 * @param config `logPretty` (LOG_PRETTY) and `nodeEnv` (NODE_ENV)
 * @param stdoutIsTerminal `process.stdout.isTTY`
 */
export function prettyLogs(
  config: { logPretty: boolean; nodeEnv: string },
  stdoutIsTerminal: boolean,
  hasDestination: boolean,
): boolean {
  if (hasDestination) return false;
  return config.logPretty || (config.nodeEnv === 'development' && stdoutIsTerminal);
}
