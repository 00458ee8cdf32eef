// How `npm start` shows the API's log on the console: the API writes JSON lines (pino); each is
// printed as one short line, and Nest's start-up inventory (a line per module and per route) is
// left out. Anything that is not a JSON log line is printed as it is.

/** Nest's start-up inventory: one line per module, controller and route, nothing a developer reads. */
const QUIET_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
]);

/** pino's numeric levels. */
const LEVELS = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/** `HH:MM:SS` of a pino `time` (epoch milliseconds), local time. */
const clock = (time) => {
  const at = new Date(typeof time === 'number' ? time : Date.now());
  return [at.getHours(), at.getMinutes(), at.getSeconds()]
    .map((part) => String(part).padStart(2, '0'))
    .join(':');
};

/**
 * One line of the API's output as `npm start` prints it.
 * - a request (pino-http): `12:00:01 GET /api/members 200 14 ms`;
 * - any other entry: `12:00:01 warn  [Context] message (ErrorType: error message)`;
 * - Nest's module and route inventory: null (not printed);
 * - a line that is not a JSON object: unchanged.
 * @param raw one line of the API's stdout
 * @returns the line to print, or null to print nothing
 */
export function devLogLine(raw) {
  let entry;
  try {
    entry = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return raw;
  if (QUIET_CONTEXTS.has(entry.context)) return null;
  const time = clock(entry.time);
  if (entry.req && entry.res) {
    const ms =
      typeof entry.responseTime === 'number' ? ` ${Math.round(entry.responseTime)} ms` : '';
    return `${time} ${entry.req.method ?? ''} ${entry.req.url ?? ''} ${entry.res.statusCode ?? ''}${ms}`;
  }
  const level = (LEVELS[entry.level] ?? 'info').padEnd(5);
  const context = entry.context ? `[${entry.context}] ` : '';
  const error = entry.err ? ` (${entry.err.type ?? 'Error'}: ${entry.err.message ?? ''})` : '';
  return `${time} ${level} ${context}${entry.msg ?? ''}${error}`;
}
