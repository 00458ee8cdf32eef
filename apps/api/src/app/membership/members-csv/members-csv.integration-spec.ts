import fs from 'node:fs';
import path from 'node:path';
import type TestAgent from 'supertest/lib/agent';
import { parse } from 'csv-parse/sync';
import {
  CSV_IMPORT_MAX_BYTES,
  MEMBER_CSV_MESSAGES,
  MEMBER_EXPORT_HEADER,
  MEMBER_FAILED_ROWS_COLUMNS,
  MESSAGES,
  referredByWaitsMessage,
  emptyMemberCsvMapping,
  type MemberImportDryRun,
  type MemberImportSettings,
  type MemberImportStatus,
  type MemberImportUpload,
  type MemberRow,
  type Page,
} from '@grove/contracts';
import { autoLinksOff, createTestApp, type TestApp } from '../../../../test/test-app';
import { waitFor } from '../../../../test/stub-servers';

const HEADER = 'Full name,E-mail,Membership price,Discount,Referred by (email)';
/** An Excel "CSV UTF-8" export: BOM, CRLF, First/Last Name, "$59.00", names in "Referred By", a blank row. */
const EXCEL_FIXTURE = fs.readFileSync(
  path.join(__dirname, '../../../../test/fixtures/excel-members.csv'),
);
const BOM = '\uFEFF';

describe('members CSV in and out (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedUp = await t.signUp();
    owner = signedUp.agent;
    businessId = signedUp.user.business.id;
  });
  afterAll(() => t.close());

  const upload = async (agent: TestAgent, csv: string): Promise<MemberImportUpload> =>
    (
      await agent
        .post('/api/members-csv/imports')
        .set('Content-Type', 'text/csv')
        .send(csv)
        .expect(201)
    ).body as MemberImportUpload;
  const dryRun = async (agent: TestAgent, up: MemberImportUpload): Promise<MemberImportDryRun> =>
    (
      await agent
        .post(`/api/members-csv/imports/${up.importId}/dry-run`)
        .send({ mapping: up.mapping })
        .expect(200)
    ).body as MemberImportDryRun;
  /**
   * Runs an upload (with its guessed mapping unless `settings` are given) and polls it to the end;
   * `seen` gets every progress the polls saw.
   */
  const runImport = async (
    agent: TestAgent,
    up: MemberImportUpload,
    seen: MemberImportStatus[] = [],
    settings: MemberImportSettings = { mapping: up.mapping },
  ): Promise<MemberImportStatus> => {
    await agent.post(`/api/members-csv/imports/${up.importId}/run`).send(settings).expect(202);
    return waitFor(async () => {
      const status = (await agent.get(`/api/members-csv/imports/${up.importId}`).expect(200))
        .body as MemberImportStatus;
      seen.push(status);
      return status.state === 'done' || status.state === 'failed' ? status : null;
      // A 10,000-row import takes seconds; on a busy 2-core machine it passed 15 s only sometimes.
    }, 60_000);
  };
  const members = async (agent: TestAgent): Promise<MemberRow[]> =>
    (
      (await agent.get('/api/members?pageSize=100&sort=memberName').expect(200))
        .body as Page<MemberRow>
    ).items;
  const snapshot = async (id: string) =>
    t.dataSource.query(
      `SELECT id, name, email, membership_price_cents, discount_cents, referred_by_id FROM members
       WHERE business_id = $1 ORDER BY email`,
      [id],
    );
  const factCount = async (id: string): Promise<number> =>
    Number(
      (
        (await t.dataSource.query(
          `SELECT (SELECT count(*) FROM lifecycle_facts WHERE business_id = $1)
                + (SELECT count(*) FROM price_changes WHERE business_id = $1) AS n`,
          [id],
        )) as { n: string }[]
      )[0]?.n,
    );

  it('needs a session for every route', async () => {
    const anonymous = t.agent();
    await anonymous.get('/api/members-csv/export').expect(401);
    await anonymous
      .post('/api/members-csv/imports')
      .set('Content-Type', 'text/csv')
      .send(HEADER)
      .expect(401);
    const id = '00000000-0000-4000-8000-000000000000';
    await anonymous
      .post(`/api/members-csv/imports/${id}/dry-run`)
      .send({ mapping: {} })
      .expect(401);
    await anonymous.post(`/api/members-csv/imports/${id}/run`).send({ mapping: {} }).expect(401);
    await anonymous.get(`/api/members-csv/imports/${id}`).expect(401);
  });

  it('guesses the mapping; the dry run lists each row with the form’s messages and writes nothing; the run imports only the good rows', async () => {
    const { agent, user } = await t.signUp();
    // The facts the import records, without automatic links' link_created ones.
    await autoLinksOff(agent);
    const csv = [
      HEADER,
      'Ann Lee,ann@x.com,100,15,',
      'Bob Ray,not-an-email,100,15,',
      'Cy Dee,cy@x.com,12.345,abc,ann@x.com',
      'Di Ek,di@x.com,80,5,ann@x.com',
      'Ed Fo,ed@x.com,80,5,nobody@x.com',
      '4ever,fay@x.com,80,5,',
      'Ann Again,A.nn@x.com,90,5,',
    ].join('\n');
    const up = await upload(agent, csv);
    expect(up.headers).toEqual(HEADER.split(','));
    expect(up.rowCount).toBe(7);
    expect(up.mapping).toEqual({
      ...emptyMemberCsvMapping(),
      memberName: 0,
      memberEmail: 1,
      membershipPrice: 2,
      discount: 3,
      referredBy: 4,
    });
    const before = await factCount(user.business.id);
    const dry = await dryRun(agent, up);
    expect(dry.rows.map((row) => [row.line, row.outcome, row.messages])).toEqual([
      [2, 'add', []],
      [3, 'error', [MESSAGES.invalidEmail]],
      [4, 'error', [MESSAGES.invalidAmount, MESSAGES.invalidDiscount]],
      [5, 'add', []],
      [6, 'error', [MEMBER_CSV_MESSAGES.referrerUnknown]],
      [7, 'error', [MESSAGES.invalidName]],
      [8, 'error', [MEMBER_CSV_MESSAGES.duplicateRow]],
    ]);
    expect(dry.counts).toEqual({ add: 2, update: 0, unchanged: 0, skipped: 0, error: 5 });
    expect(await members(agent)).toEqual([]);
    expect(await factCount(user.business.id)).toBe(before);

    const status = await runImport(agent, up);
    expect(status).toMatchObject({ state: 'done', totalRows: 7, processedRows: 7 });
    expect(status.counts).toEqual(dry.counts);
    const rows = await members(agent);
    expect(rows.map((row) => [row.memberName, row.memberEmail, row.branches])).toEqual([
      ['Ann Lee', 'ann@x.com', 1],
      ['Di Ek', 'di@x.com', 0],
    ]);
    const ann = rows[0] as MemberRow;
    expect(ann).toMatchObject({
      membershipPriceCents: 10000,
      discountCents: 1500,
      newPriceCents: 8500,
    });
    expect(rows[1]?.referringMemberId).toBe(ann.id);
    const facts = (await t.dataSource.query(
      `SELECT kind, source FROM lifecycle_facts WHERE business_id = $1 ORDER BY kind`,
      [user.business.id],
    )) as { kind: string; source: string }[];
    expect(facts).toEqual([
      { kind: 'branch_added', source: 'csv' },
      { kind: 'member_added', source: 'csv' },
      { kind: 'member_added', source: 'csv' },
    ]);
    // A second run of the same upload queues nothing.
    const again = await agent
      .post(`/api/members-csv/imports/${up.importId}/run`)
      .send({ mapping: up.mapping })
      .expect(202);
    expect((again.body as MemberImportStatus).state).toBe('done');
  });

  it('with the automatic-link setting on, every member the import adds gets a live referral link; members from before keep none', async () => {
    const { agent, user } = await t.signUp();
    await autoLinksOff(agent);
    await agent
      .post('/api/members')
      .send({
        memberName: 'Old Timer',
        memberEmail: 'old@x.com',
        membershipPriceCents: 9000,
        discountCents: 1000,
      })
      .expect(201);
    await agent.put('/api/referral-links/settings').send({ autoCreate: true }).expect(200);
    const up = await upload(
      agent,
      [HEADER, 'Ann Lee,ann@x.com,100,15,', 'Di Ek,di@x.com,80,5,ann@x.com'].join('\n'),
    );
    expect((await runImport(agent, up)).state).toBe('done');
    const linked = (await t.dataSource.query(
      `SELECT m.email FROM members m JOIN referral_links l ON l.member_id = m.id AND l.revoked_at IS NULL
       WHERE m.business_id = $1 ORDER BY m.email`,
      [user.business.id],
    )) as { email: string }[];
    expect(linked.map((row) => row.email)).toEqual(['ann@x.com', 'di@x.com']);
  });

  it('a re-import of the same file changes nothing; a changed row updates; Mindbody members are never overwritten', async () => {
    const { agent, user } = await t.signUp();
    const csv = [HEADER, 'Gus Ho,gus@x.com,50,5,', 'Hal Io,hal@x.com,60,5,gus@x.com'].join('\r\n');
    await runImport(agent, await upload(agent, csv));
    const first = await snapshot(user.business.id);
    const facts = await factCount(user.business.id);

    const second = await upload(agent, csv);
    const dry = await dryRun(agent, second);
    expect(dry.counts).toEqual({ add: 0, update: 0, unchanged: 2, skipped: 0, error: 0 });
    const status = await runImport(agent, second);
    expect(status.counts).toEqual(dry.counts);
    expect(await snapshot(user.business.id)).toEqual(first);
    expect(await factCount(user.business.id)).toBe(facts);

    await t.dataSource.query(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, mindbody_client_id)
       VALUES ($1, 'Ivy Mind', 'ivy@x.com', 'ivy@xcom', 7000, 0, '100')`,
      [user.business.id],
    );
    const changed = await upload(
      agent,
      [
        HEADER,
        'Gus Ho,gus@x.com,55,5,',
        'Ivy Changed,ivy@x.com,1,1,',
        'Jo Kay,jo@x.com,9,1,ivy@x.com',
      ].join('\n'),
    );
    const changedDry = await dryRun(agent, changed);
    expect(changedDry.rows.map((row) => [row.outcome, row.messages])).toEqual([
      ['update', []],
      ['skipped', [MESSAGES.managedMemberLocked]],
      ['error', [MEMBER_CSV_MESSAGES.referrerManaged]],
    ]);
    await runImport(agent, changed);
    const after = (await snapshot(user.business.id)) as {
      email: string;
      name: string;
      membership_price_cents: number;
    }[];
    expect(after.find((row) => row.email === 'gus@x.com')?.membership_price_cents).toBe(5500);
    expect(after.find((row) => row.email === 'ivy@x.com')).toMatchObject({
      name: 'Ivy Mind',
      membership_price_cents: 7000,
    });
    expect(after.some((row) => row.email === 'jo@x.com')).toBe(false);
    const ledger = (await t.dataSource.query(
      `SELECT reason, old_price_cents, new_price_cents FROM price_changes c JOIN members m ON m.id = c.member_id
       WHERE c.business_id = $1 AND m.email = 'gus@x.com' ORDER BY c.id`,
      [user.business.id],
    )) as { reason: string }[];
    expect(ledger).toEqual([
      { reason: 'member_added', old_price_cents: null, new_price_cents: 4500 },
      { reason: 'membership_price_changed', old_price_cents: 4500, new_price_cents: 5000 },
    ]);
  });

  it('exports every member of the session’s business only, with the right columns and values, formula cells neutralised', async () => {
    const { agent } = await t.signUp();
    const tree = (
      await agent
        .post('/api/members')
        .send({
          memberName: 'Kim Lo',
          memberEmail: '=cmd@x.com',
          membershipPriceCents: 10_000,
          discountCents: 1250,
        })
        .expect(201)
    ).body as MemberRow;
    await agent
      .post(`/api/members/${tree.id}/branches`)
      .send({
        memberName: 'Lu Mo',
        memberEmail: '+lu@x.com',
        membershipPriceCents: 4000,
        discountCents: 0,
      })
      .expect(201);
    const link = (await agent.post(`/api/members/${tree.id}/referral-link`).send({}).expect(201))
      .body as {
      url: string;
    };
    // Another business's member must not appear.
    await owner
      .post('/api/members')
      .send({
        memberName: 'Other Biz',
        memberEmail: 'other@x.com',
        membershipPriceCents: 100,
        discountCents: 0,
      })
      .expect(201);

    const reply = await agent.get('/api/members-csv/export').buffer(true).expect(200);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toMatch(
      /^attachment; filename="grove-members-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    // Excel reads a UTF-8 file as UTF-8 only with its byte-order mark.
    expect(reply.text.startsWith(BOM)).toBe(true);
    const records = parse(reply.text, { bom: true }) as string[][];
    expect(records[0]).toEqual([...MEMBER_EXPORT_HEADER]);
    const today = new Date().toISOString().slice(0, 10);
    // The link's origin is the request's (each supertest request has its own port).
    const linkPath = (url: string | undefined) => (url ? new URL(url).pathname : url);
    expect(linkPath(records[1]?.[7])).toBe(linkPath(link.url));
    records.forEach((record) => record.splice(7, 1));
    // Amounts in the business's currency, named in 'Currency' (an Australian business: AUD).
    expect(records.slice(1)).toEqual([
      ['Kim Lo', "'=cmd@x.com", '1', '100.00', '12.50', '87.50', 'AUD', '', '', 'Active', today],
      [
        'Lu Mo',
        "'+lu@x.com",
        '0',
        '40.00',
        '0.00',
        '40.00',
        'AUD',
        "'=cmd@x.com",
        '',
        'Active',
        today,
      ],
    ]);
    expect(reply.text).not.toContain('other@x.com');
  });

  it('imports its own export back: the columns guessed, every row unchanged', async () => {
    const { agent } = await t.signUp();
    const csv = [
      HEADER,
      "Siobhán O'Brien,siobhan@x.com,1059.5,12.25,",
      'Zoë Nguyễn,zoe@x.com,49,0,siobhan@x.com',
    ].join('\n');
    await runImport(agent, await upload(agent, csv));
    const exported = (await agent.get('/api/members-csv/export').buffer(true).expect(200)).text;
    const again = await upload(agent, exported);
    expect(again.mapping).toEqual({
      ...emptyMemberCsvMapping(),
      memberName: 0,
      memberEmail: 1,
      membershipPrice: 3,
      discount: 4,
      referredBy: MEMBER_EXPORT_HEADER.indexOf("Referrer's email"),
    });
    const dry = await dryRun(agent, again);
    expect(dry.counts).toEqual({ add: 0, update: 0, unchanged: 2, skipped: 0, error: 0 });
  });

  it('streams a big business’s export in batches: 2,500 members, each once', async () => {
    const { agent, user } = await t.signUp();
    await t.dataSource.query(
      `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents, created_at)
       SELECT $1, 'Member', 'm' || i || '@x.com', 'm' || i || '@xcom', 1000, 100, now() - (i % 7) * interval '1 microsecond'
       FROM generate_series(1, 2500) i`,
      [user.business.id],
    );
    const reply = await agent.get('/api/members-csv/export').buffer(true).expect(200);
    const emails = (parse(reply.text, { bom: true }) as string[][]).slice(1).map((row) => row[1]);
    expect(emails).toHaveLength(2500);
    expect(new Set(emails).size).toBe(2500);
  });

  it('keeps uploads to their business: another owner’s upload is 404 for dry run, run and status', async () => {
    const up = await upload(owner, [HEADER, 'Nia Oh,nia@x.com,10,1,'].join('\n'));
    const { agent: intruder } = await t.signUp();
    await intruder
      .post(`/api/members-csv/imports/${up.importId}/dry-run`)
      .send({ mapping: up.mapping })
      .expect(404);
    await intruder
      .post(`/api/members-csv/imports/${up.importId}/run`)
      .send({ mapping: up.mapping })
      .expect(404);
    const status = await intruder.get(`/api/members-csv/imports/${up.importId}`).expect(404);
    expect(status.body.message).toBe(MEMBER_CSV_MESSAGES.importNotFound);
    await intruder.get('/api/members-csv/imports/not-a-uuid').expect(404);
    const rows = (await t.dataSource.query(
      `SELECT state FROM member_imports WHERE id = $1 AND business_id = $2`,
      [up.importId, businessId],
    )) as { state: string }[];
    expect(rows).toEqual([{ state: 'uploaded' }]);
  });

  it('refuses bad files and mappings with a clear 4xx and stores nothing', async () => {
    const { agent, user } = await t.signUp();
    const send = (type: string, body: string | Buffer) =>
      agent.post('/api/members-csv/imports').set('Content-Type', type).send(body);
    expect((await send('application/json', '{"a":1}').expect(415)).body.message).toBe(
      MEMBER_CSV_MESSAGES.notCsv,
    );
    expect((await send('image/png', Buffer.from([137, 80, 78, 71])).expect(415)).body.message).toBe(
      MEMBER_CSV_MESSAGES.notCsv,
    );
    expect(
      (await send('text/csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff])).expect(400)).body
        .message,
    ).toBe(MEMBER_CSV_MESSAGES.unreadable);
    expect((await send('text/csv', '').expect(400)).body.message).toBe(MEMBER_CSV_MESSAGES.empty);
    expect((await send('text/csv', `${HEADER}\n\n,,,\n`).expect(400)).body.message).toBe(
      MEMBER_CSV_MESSAGES.empty,
    );
    expect((await send('text/csv', `${HEADER}\n"Ann,ann@x.com`).expect(400)).body.message).toMatch(
      new RegExp(`^${MEMBER_CSV_MESSAGES.unreadable}: `),
    );
    const tooMany = [
      HEADER,
      ...Array.from({ length: 10_001 }, (_, i) => `A B,a${i}@x.com,1,1,`),
    ].join('\n');
    expect((await send('text/csv', tooMany).expect(400)).body.message).toBe(
      MEMBER_CSV_MESSAGES.tooManyRows,
    );
    const tooBig = `${HEADER}\n${'x'.repeat(CSV_IMPORT_MAX_BYTES)}`;
    expect((await send('text/csv', tooBig).expect(413)).body.message).toBe(
      MEMBER_CSV_MESSAGES.tooLarge,
    );
    const stored = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM member_imports WHERE business_id = $1`,
      [user.business.id],
    )) as { n: number }[];
    expect(stored).toEqual([{ n: 0 }]);

    const up = await upload(agent, [HEADER, 'Pia Qu,pia@x.com,10,1,'].join('\n'));
    const dry = (mapping: unknown) =>
      agent.post(`/api/members-csv/imports/${up.importId}/dry-run`).send({ mapping });
    expect((await dry({ ...up.mapping, discount: null }).expect(400)).body.message).toBe(
      MEMBER_CSV_MESSAGES.mappingIncomplete,
    );
    expect((await dry({ ...up.mapping, discount: 9 }).expect(400)).body.message).toBe(
      MEMBER_CSV_MESSAGES.mappingInvalid,
    );
    expect((await dry({ ...up.mapping, discount: 0 }).expect(400)).body.message).toBe(
      MEMBER_CSV_MESSAGES.mappingInvalid,
    );
    expect((await dry({ ...up.mapping, extra: 1 }).expect(400)).body.message).toBe(
      MEMBER_CSV_MESSAGES.mappingInvalid,
    );
    await dry('nope').expect(400);
    // The JSON limit of the rest of the API is unchanged.
    await agent
      .post(`/api/members-csv/imports/${up.importId}/dry-run`)
      .send({ mapping: up.mapping, pad: 'x'.repeat(200 * 1024) })
      .expect(413);
    expect(await members(agent)).toEqual([]);
  });

  it('imports 10,000 rows in one go, with progress', async () => {
    const { agent, user } = await t.signUp();
    // The tree is the last row: its 9,999 branches come before it in the file.
    const lines = Array.from({ length: 10_000 }, (_, i) =>
      i === 9_999 ? 'Big Tree,big@x.com,100,0.01,' : `Member Row,big${i}@x.com,50,1,big@x.com`,
    );
    const up = await upload(agent, [HEADER, ...lines].join('\n'));
    const seen: MemberImportStatus[] = [];
    const status = await runImport(agent, up, seen);
    expect(status.error).toBe(null);
    // The progress bar moved: some poll saw the import part-way.
    expect(
      seen.some(
        (poll) => poll.state === 'running' && poll.processedRows > 0 && poll.processedRows < 10_000,
      ),
    ).toBe(true);
    expect(status).toMatchObject({ state: 'done', processedRows: 10_000 });
    expect(status.counts).toEqual({ add: 10_000, update: 0, unchanged: 0, skipped: 0, error: 0 });
    const [row] = (await t.dataSource.query(`SELECT member_count FROM businesses WHERE id = $1`, [
      user.business.id,
    ])) as { member_count: number }[];
    expect(row?.member_count).toBe(10_000);
    const [tree] = (await t.dataSource.query(
      `SELECT (SELECT count(*)::int FROM members b WHERE b.referred_by_id = m.id) AS branches
       FROM members m WHERE m.business_id = $1 AND m.email = 'big@x.com'`,
      [user.business.id],
    )) as { branches: number }[];
    expect(tree?.branches).toBe(9_999);
    // Automatic links are on for a new business: every member got one (written 500 per statement),
    // each recorded once in the lifecycle facts (1,000 per statement).
    const [links] = (await t.dataSource.query(
      `SELECT (SELECT count(*)::int FROM referral_links WHERE business_id = $1) AS links,
         (SELECT count(*)::int FROM lifecycle_facts WHERE business_id = $1 AND kind = 'link_created') AS facts`,
      [user.business.id],
    )) as { links: number; facts: number }[];
    expect(links).toEqual({ links: 10_000, facts: 10_000 });
  }, 120_000);

  describe('spreadsheets as owners have them (issue 25, Build 6)', () => {
    const settingsOf = (
      up: MemberImportUpload,
      extra: Partial<MemberImportSettings> = {},
    ): MemberImportSettings => ({ mapping: up.mapping, discountForEveryRow: '5', ...extra });
    const failedRows = async (agent: TestAgent, importId: string) => {
      const reply = await agent
        .get(`/api/members-csv/imports/${importId}/failed-rows`)
        .buffer(true)
        .expect(200);
      expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(reply.headers['content-disposition']).toBe(
        'attachment; filename="grove-failed-rows.csv"',
      );
      expect(reply.text.startsWith(BOM)).toBe(true);
      return parse(reply.text, { bom: true }) as string[][];
    };
    const FAILED = [
      ['Pia', 'Stone', 'pia.stone@example.com', '$59.0x', '', '', '10', MESSAGES.invalidAmount],
    ];

    it('imports an Excel export: full names from First/Last Name, "$1,059.00", one discount for every row, referrers by name (of the file and of the business), names of no one or of several waiting in Referrals to match, a blank row ignored, the failed rows as a file', async () => {
      const { agent } = await t.signUp();
      const olivia = (
        await agent
          .post('/api/members')
          .send({
            memberName: 'Olivia Chen',
            memberEmail: 'olivia.chen@example.com',
            membershipPriceCents: 10_000,
            discountCents: 1000,
          })
          .expect(201)
      ).body as MemberRow;

      const up = await upload(agent, EXCEL_FIXTURE.toString('utf8'));
      expect(up.headers).toEqual([
        'First Name',
        'Last Name',
        'Email',
        'Membership Price',
        'Referred By',
        'Phone',
      ]);
      // The row of empty cells and the trailing blank line are not rows.
      expect(up.rowCount).toBe(10);
      expect(up.mapping).toEqual({
        memberName: null,
        firstName: 0,
        lastName: 1,
        memberEmail: 2,
        membershipPrice: 3,
        discount: null,
        referredBy: 4,
      });
      // Without a discount column nor one discount for every row, the file cannot be checked.
      expect(
        (
          await agent
            .post(`/api/members-csv/imports/${up.importId}/dry-run`)
            .send({ mapping: up.mapping })
            .expect(400)
        ).body.message,
      ).toBe(MEMBER_CSV_MESSAGES.mappingIncomplete);
      // The failed rows are known once a dry run has said which they are.
      expect(
        (await agent.get(`/api/members-csv/imports/${up.importId}/failed-rows`).expect(409)).body
          .message,
      ).toBe(MEMBER_CSV_MESSAGES.notChecked);

      const dry = (
        await agent
          .post(`/api/members-csv/imports/${up.importId}/dry-run`)
          .send(settingsOf(up, { discountForEveryRow: '$5.00' }))
          .expect(200)
      ).body as MemberImportDryRun;
      expect(dry.rows.map((row) => [row.line, row.memberName, row.outcome, row.messages])).toEqual([
        [2, 'Leo Martin', 'add', []],
        [3, 'Emma Brown', 'add', []],
        [4, "Siobhán O'Brien", 'add', []],
        [5, 'Anne-Marie Dubois', 'add', []],
        [7, "Ben O'Connor", 'add', [referredByWaitsMessage('Sam Lee', true)]],
        [8, 'Sam Lee', 'add', []],
        [9, 'Sam Lee', 'add', []],
        [10, 'Pia Stone', 'error', [MESSAGES.invalidAmount]],
        [11, 'Tom Nguyen', 'add', []],
        [12, 'Ivy Park', 'add', [referredByWaitsMessage('Nobody Known')]],
      ]);
      expect(dry.counts).toEqual({ add: 9, update: 0, unchanged: 0, skipped: 0, error: 1 });
      expect(await failedRows(agent, up.importId)).toEqual([
        [
          'First Name',
          'Last Name',
          'Email',
          'Membership Price',
          'Referred By',
          'Phone',
          ...MEMBER_FAILED_ROWS_COLUMNS,
        ],
        ...FAILED,
      ]);
      expect((await members(agent)).map((row) => row.memberName)).toEqual(['Olivia Chen']);

      const status = await runImport(agent, up, [], settingsOf(up));
      expect(status.error).toBe(null);
      expect(status.counts).toEqual(dry.counts);
      const rows = await members(agent);
      const byName = new Map(rows.map((row) => [row.memberEmail, row]));
      const referrerOf = (email: string) =>
        rows.find((row) => row.id === byName.get(email)?.referringMemberId)?.memberName ?? null;
      expect(
        rows.map((row) => [
          row.memberName,
          referrerOf(row.memberEmail),
          row.membershipPriceCents,
          row.discountCents,
          row.branches,
          row.newPriceCents,
        ]),
      ).toEqual([
        ['Anne-Marie Dubois', "Siobhán O'Brien", 4_950, 500, 0, 4_950],
        ["Ben O'Connor", null, 5_900, 500, 0, 5_900],
        ['Emma Brown', 'Leo Martin', 105_900, 500, 1, 105_400],
        ['Ivy Park', null, 5_900, 500, 0, 5_900],
        ['Leo Martin', null, 5_900, 500, 1, 5_400],
        ['Olivia Chen', null, 10_000, 1_000, 1, 9_000],
        ['Sam Lee', null, 5_900, 500, 0, 5_900],
        ['Sam Lee', null, 5_900, 500, 0, 5_900],
        ["Siobhán O'Brien", 'Emma Brown', 5_900, 500, 1, 5_400],
        ['Tom Nguyen', 'Olivia Chen', 5_900, 500, 0, 5_900],
      ]);
      expect(byName.get('tom.nguyen@example.com')?.referringMemberId).toBe(olivia.id);
      // Ben and Ivy wait in Referrals to match with the names as the file gave them.
      const waiting = (await agent.get('/api/referrals-to-match').expect(200)).body as {
        items: { memberName: string; referredByNote: string }[];
      };
      expect(waiting.items.map((item) => [item.memberName, item.referredByNote]).sort()).toEqual([
        ["Ben O'Connor", 'Sam Lee'],
        ['Ivy Park', 'Nobody Known'],
      ]);
      // After the run, the failed rows are the rows still not imported: the same one.
      expect((await failedRows(agent, up.importId)).slice(1)).toEqual(FAILED);
    });

    it('reads a semicolon file with comma decimals in the locale given, and refuses settings that contradict themselves', async () => {
      const { agent } = await t.signUp();
      const up = await upload(
        agent,
        [
          'Vorname;Nachname;E-Mail;Preis;Rabatt',
          'Jürgen;Groß;juergen@example.com;"1.059,00 €";5,00 €',
          'Zoë;Weiß;zoe@example.com;1.059;2',
        ].join('\n'),
      );
      const mapping = {
        ...emptyMemberCsvMapping(),
        firstName: 0,
        lastName: 1,
        memberEmail: 2,
        membershipPrice: 3,
        discount: 4,
      };
      const dry = (body: object) =>
        agent.post(`/api/members-csv/imports/${up.importId}/dry-run`).send(body);
      expect(
        (await dry({ mapping: { ...mapping, memberName: 2, memberEmail: null } }).expect(400)).body
          .message,
      ).toBe(MEMBER_CSV_MESSAGES.nameTwice);
      expect((await dry({ mapping, discountForEveryRow: '5' }).expect(400)).body.message).toBe(
        MEMBER_CSV_MESSAGES.discountTwice,
      );
      expect(
        (
          await dry({
            mapping: { ...mapping, discount: null },
            discountForEveryRow: 'five',
          }).expect(400)
        ).body.message,
      ).toBe(MESSAGES.invalidDiscount);
      expect(
        (
          await dry({
            mapping: { ...mapping, discount: null },
            discountForEveryRow: '$1,000,000.01',
          }).expect(400)
        ).body.message,
      ).toBe(MESSAGES.invalidDiscount);
      await dry({ mapping, locale: 'x'.repeat(36) }).expect(400);

      const german = (await dry({ mapping, locale: 'de-DE' }).expect(200))
        .body as MemberImportDryRun;
      expect(german.counts).toMatchObject({ add: 2, error: 0 });
      const status = await runImport(agent, up, [], { mapping });
      expect(status.state).toBe('done');
      // The run was asked without a locale: "1.059" is three decimals in en-AU.
      expect(status.counts).toMatchObject({ add: 1, error: 1 });
      const rows = await members(agent);
      expect(
        rows.map((row) => [row.memberName, row.membershipPriceCents, row.discountCents]),
      ).toEqual([['Jürgen Groß', 105_900, 500]]);
    });

    it('keeps failed rows to their business and needs a session for them', async () => {
      const up = await upload(owner, [HEADER, 'Nia Oh,nia@x.com,10,1,'].join('\n'));
      await owner
        .post(`/api/members-csv/imports/${up.importId}/dry-run`)
        .send({ mapping: up.mapping })
        .expect(200);
      await t.agent().get(`/api/members-csv/imports/${up.importId}/failed-rows`).expect(401);
      const { agent: intruder } = await t.signUp();
      const refused = await intruder
        .get(`/api/members-csv/imports/${up.importId}/failed-rows`)
        .expect(404);
      expect(refused.body.message).toBe(MEMBER_CSV_MESSAGES.importNotFound);
      await intruder.get('/api/members-csv/imports/not-a-uuid/failed-rows').expect(404);
      // The owner's file has no failed row: the header alone.
      expect(await failedRows(owner, up.importId)).toEqual([
        [...HEADER.split(','), ...MEMBER_FAILED_ROWS_COLUMNS],
      ]);
    });

    it('exports each member’s status and join date (UTC day), with a byte-order mark', async () => {
      const { agent, user } = await t.signUp();
      await t.dataSource.query(
        `INSERT INTO members (business_id, name, email, email_key, membership_price_cents, discount_cents,
           mindbody_client_id, mindbody_cancelled_at, created_at)
         VALUES ($1, 'Siobhán O''Brien', 'siobhan@x.com', 'siobhan@xcom', 5900, 0, '77', now(),
           '2024-03-05 23:30:00+00')`,
        [user.business.id],
      );
      const reply = await agent.get('/api/members-csv/export').buffer(true).expect(200);
      expect(reply.text.startsWith(`${BOM}Name,Email,`)).toBe(true);
      const [header, row] = parse(reply.text, { bom: true }) as string[][];
      expect(header?.slice(-2)).toEqual(['Status', 'Join date']);
      expect(row?.[0]).toBe("Siobhán O'Brien");
      expect(row?.slice(-2)).toEqual(['Ended', '2024-03-05']);
    });
  });
});
