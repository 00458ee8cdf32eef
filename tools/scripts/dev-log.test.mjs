// Tests of dev-log.mjs (how `npm start` prints the API's log): node --test tools/scripts/dev-log.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { devLogLine } from './dev-log.mjs';

const at = new Date(2026, 10, 27, 9, 5, 7).getTime();

test('a request is one short line: time, method, path, status, duration', () => {
  const line = JSON.stringify({
    level: 30,
    time: at,
    pid: 1,
    hostname: 'h',
    req: { id: 'r1', method: 'GET', url: '/api/members?page=1', headers: { cookie: 'x' } },
    res: { statusCode: 200, headers: {} },
    responseTime: 14.4,
    msg: 'request completed',
  });
  assert.equal(devLogLine(line), '09:05:07 GET /api/members?page=1 200 14 ms');
  assert.ok(devLogLine(line).length < 80);
});

test("Nest's module and route inventory is left out, its other lines are kept", () => {
  for (const context of ['InstanceLoader', 'RoutesResolver', 'RouterExplorer']) {
    assert.equal(
      devLogLine(JSON.stringify({ level: 30, time: at, context, msg: 'Mapped {/api, GET} route' })),
      null,
    );
  }
  assert.equal(
    devLogLine(
      JSON.stringify({
        level: 40,
        time: at,
        context: 'AppConfig',
        msg: 'ALTCHA_HMAC_KEY is not set',
      }),
    ),
    '09:05:07 warn  [AppConfig] ALTCHA_HMAC_KEY is not set',
  );
  assert.equal(
    devLogLine(
      JSON.stringify({
        level: 50,
        time: at,
        msg: 'sync failed',
        err: { type: 'TypeError', message: 'x is undefined' },
      }),
    ),
    '09:05:07 error sync failed (TypeError: x is undefined)',
  );
});

test('a line that is not a JSON log entry is printed as it is', () => {
  assert.equal(devLogLine('Grove is listening'), 'Grove is listening');
  assert.equal(devLogLine('[1,2]'), '[1,2]');
  assert.equal(devLogLine('null'), 'null');
});
