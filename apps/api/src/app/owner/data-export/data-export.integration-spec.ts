import { parse } from 'csv-parse/sync';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';
import type TestAgent from 'supertest/lib/agent';
import {
  DATA_EXPORT_NOT_READY_MESSAGE,
  DATA_EXPORT_RUNNING_MESSAGE,
  DEFAULT_REFERRER_REWARD,
  type ReferrerRewardOwed,
} from '@grove/contracts';
import { waitFor } from '../../../../test/stub-servers';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';

/** Every file of a ZIP as text, by name (yauzl, the reader the journeys use too). */
function unzip(zip: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    fromBuffer(zip, { lazyEntries: true }, (error: Error | null, file: ZipFile) => {
      if (error) return reject(error);
      const files = new Map<string, string>();
      file.on('entry', (entry: Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(parts).toString('utf8'));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(files));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

/** The download as a Buffer (supertest's binary parser). */
async function download(agent: TestAgent, url: string, status = 200): Promise<Buffer> {
  const reply = await agent
    .get(url)
    .buffer(true)
    .parse((res, done) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => done(null, Buffer.concat(parts)));
    })
    .expect(status);
  return reply.body as Buffer;
}

/**
 * Export everything of a business (issue 34 item 6, docs/product.md#data-rights) on PostgreSQL:
 * a background job with progress, a ZIP of CSV files with README.txt holding every member as
 * written, one export at a time, the daily limit, expiry, and each business's exports its own.
 */
describe('the data export (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DATA_EXPORT_DAILY_LIMIT: '3' });
  });
  afterAll(async () => {
    await t.close();
  });

  async function finished(owner: TestAgent, id: string) {
    return waitFor(async () => {
      const reply = await owner.get(`/api/data-exports/${id}`).expect(200);
      return reply.body.state === 'done' || reply.body.state === 'failed' ? reply.body : undefined;
    });
  }

  it('builds a ZIP of CSV files with a README in the background; it holds every member as written', async () => {
    const { agent: owner } = await t.signUp({ businessName: "Siobhán's Gym" });
    const referrer = await owner
      .post('/api/members')
      .send(treeBody("Siobhán O'Brien", 'siobhan@example.ie', 12_000, 1_500))
      .expect(201);
    await owner
      .post(`/api/members/${referrer.body.id}/branches`)
      .send(treeBody("Zoë D'Arcy-Nguyễn", 'zoe@example.fr', 9_000, 1_000))
      .expect(201);
    await owner
      .post('/api/members')
      .send(treeBody('Ana-Sofía Pérez', 'ana@example.es'))
      .expect(201);

    const started = await owner.post('/api/data-exports').expect(202);
    expect(started.body).toMatchObject({ state: 'queued', doneSteps: 0 });
    expect(started.body.totalSteps).toBeGreaterThan(5);
    const done = await finished(owner, started.body.id);
    expect(done).toMatchObject({ state: 'done', error: null });
    expect(done.doneSteps).toBe(done.totalSteps);
    expect(done.sizeBytes).toBeGreaterThan(0);
    expect(Date.parse(done.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);

    const zip = await download(owner, `/api/data-exports/${started.body.id}/download`);
    expect(zip.length).toBe(done.sizeBytes);
    const files = await unzip(zip);
    expect([...files.keys()]).toEqual(
      expect.arrayContaining([
        'README.txt',
        'members.csv',
        'branches.csv',
        'price-history.csv',
        'business.csv',
        'prospects.csv',
      ]),
    );
    expect(files.get('README.txt')).toContain("Grove data export of Siobhán's Gym");
    expect(files.get('README.txt')).toContain('members.csv');
    const members = parse(files.get('members.csv') as string, {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(members.map((row) => row['name']).sort()).toEqual(
      ['Ana-Sofía Pérez', "Siobhán O'Brien", "Zoë D'Arcy-Nguyễn"].sort(),
    );
    const branches = parse(files.get('branches.csv') as string, {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(branches).toEqual([
      expect.objectContaining({
        member_name: "Zoë D'Arcy-Nguyễn",
        referrer_name: "Siobhán O'Brien",
      }),
    ]);
    const prices = parse(files.get('price-history.csv') as string, {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(
      prices.some(
        (row) => row['member_id'] === referrer.body.id && row['new_price_cents'] === '10500',
      ),
    ).toBe(true);
    // No secret leaves: the staff file has no password hash.
    expect(files.get('staff.csv')).not.toMatch(/password|\$argon|\$2[aby]\$/);

    const list = await owner.get('/api/data-exports').expect(200);
    expect(list.body.exports[0]).toMatchObject({ id: started.body.id, state: 'done' });
  });

  it("holds the business's rewards owed to referrers, honoured or not, and none of another business's", async () => {
    const gym = async (businessName: string, referrer: string, friends: [string, string][]) => {
      const { agent } = await t.signUp({ businessName });
      await agent
        .put('/api/settings/referrer-reward')
        .send({ ...DEFAULT_REFERRER_REWARD, kind: 'credit', creditCents: 2_500 })
        .expect(200);
      const tree = await agent
        .post('/api/members')
        .send(treeBody(referrer, `${referrer.split(' ')[0].toLowerCase()}@example.com`))
        .expect(201);
      for (const [name, email] of friends)
        await agent
          .post(`/api/members/${tree.body.id}/branches`)
          .send(treeBody(name, email))
          .expect(201);
      const owed = (await agent.get('/api/referrer-rewards').expect(200)).body
        .items as ReferrerRewardOwed[];
      return { agent, owed };
    };
    const mine = await gym("O'Brien's Boxing & Fitness", "Siobhán O'Brien", [
      ['Ana-Sofía Pérez', 'ana-sofia@example.es'],
      ["Zoë D'Arcy-Nguyễn", 'zoe@example.fr'],
    ]);
    const others = await gym('Harbour Pilates', 'Kenji Watanabe', [
      ['Priya Sharma', 'priya@example.in'],
    ]);
    expect(mine.owed).toHaveLength(2);
    expect(others.owed).toHaveLength(1);
    const honoured = mine.owed.find((row) => row.branchName === 'Ana-Sofía Pérez');
    await mine.agent.post(`/api/referrer-rewards/${honoured?.id}/honoured`).expect(200);

    const started = await mine.agent.post('/api/data-exports').expect(202);
    expect(await finished(mine.agent, started.body.id)).toMatchObject({ state: 'done' });
    const files = await unzip(
      await download(mine.agent, `/api/data-exports/${started.body.id}/download`),
    );
    expect(files.get('README.txt')).toContain('rewards-owed.csv');
    const rows = parse(files.get('rewards-owed.csv') as string, {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(
      rows
        .map((row) => ({
          referrer: row['referrer_name'],
          friend: row['friend_name'],
          reward: JSON.parse(row['reward']),
          capped: row['capped'],
          honoured: row['honoured_at'] !== '',
        }))
        .sort((a, b) => a.friend.localeCompare(b.friend)),
    ).toEqual([
      {
        referrer: "Siobhán O'Brien",
        friend: 'Ana-Sofía Pérez',
        reward: expect.objectContaining({ kind: 'credit', creditCents: 2_500 }),
        capped: 'false',
        honoured: true,
      },
      {
        referrer: "Siobhán O'Brien",
        friend: "Zoë D'Arcy-Nguyễn",
        reward: expect.objectContaining({ kind: 'credit', creditCents: 2_500 }),
        capped: 'false',
        honoured: false,
      },
    ]);
    expect(rows.map((row) => row['id']).sort()).toEqual(mine.owed.map((row) => row.id).sort());
    // Harbour Pilates' reward is nowhere in the export.
    for (const text of files.values()) {
      expect(text).not.toContain(others.owed[0].id);
      expect(text).not.toContain('Priya Sharma');
    }
    const business = parse(files.get('business.csv') as string, {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(JSON.parse(business[0]['referrer_reward'])).toMatchObject({
      kind: 'credit',
      creditCents: 2_500,
    });
  });

  it('holds what a friend of the join page answered to "Who referred you?" in prospects.csv', async () => {
    const { agent } = await t.signUp({ businessName: 'Ceol Fitness' });
    const { url } = (await agent.get('/api/join-page').expect(200)).body as { url: string };
    await t
      .agent()
      .post(new URL(url).pathname)
      .type('form')
      .send({ name: 'Ben O’Connor', email: 'ben@example.ie', referredBy: 'Jenny (spin class)' })
      .expect(200);
    const started = await agent.post('/api/data-exports').expect(202);
    expect(await finished(agent, started.body.id)).toMatchObject({ state: 'done' });
    const files = await unzip(
      await download(agent, `/api/data-exports/${started.body.id}/download`),
    );
    const rows = parse(files.get('prospects.csv') as string, {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(rows).toEqual([
      expect.objectContaining({
        name: 'Ben O’Connor',
        email: 'ben@example.ie',
        referring_member_id: '',
        referred_by_note: 'Jenny (spin class)',
        channel: 'join-page',
      }),
    ]);
  });

  it('runs one export at a time, refuses past the daily limit, and forgets an expired file', async () => {
    const { agent: owner } = await t.signUp();
    const first = await owner.post('/api/data-exports').expect(202);
    // The second start may meet the first still queued or running: 409, nothing added.
    const second = await owner.post('/api/data-exports');
    if (second.status === 409) expect(second.body.message).toBe(DATA_EXPORT_RUNNING_MESSAGE);
    else expect(second.status).toBe(202);
    await finished(owner, first.body.id);
    if (second.status === 202) await finished(owner, second.body.id);
    while ((await owner.get('/api/data-exports').expect(200)).body.exports.length < 3) {
      const next = await owner.post('/api/data-exports').expect(202);
      await finished(owner, next.body.id);
    }
    const limited = await owner.post('/api/data-exports').expect(429);
    expect(limited.body.message).toBe(
      'You can export your data 3 times a day. Please try again tomorrow.',
    );

    await t.dataSource.query(
      `UPDATE business_exports SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [first.body.id],
    );
    const expired = await owner.get(`/api/data-exports/${first.body.id}`).expect(200);
    expect(expired.body).toMatchObject({ state: 'expired', expiresAt: null });
    const gone = await owner.get(`/api/data-exports/${first.body.id}/download`).expect(404);
    expect(gone.body.message).toBe(DATA_EXPORT_NOT_READY_MESSAGE);
  });

  it("keeps each business's exports its own, and answers bad ids 404", async () => {
    const { agent: owner } = await t.signUp();
    const { agent: other } = await t.signUp();
    const mine = await owner.post('/api/data-exports').expect(202);
    await finished(owner, mine.body.id);
    await other.get(`/api/data-exports/${mine.body.id}`).expect(404);
    await other.get(`/api/data-exports/${mine.body.id}/download`).expect(404);
    expect((await other.get('/api/data-exports').expect(200)).body.exports).toEqual([]);
    for (const bad of ['not-a-uuid', '00000000-0000-0000-0000-000000000000', "1' OR '1'='1"]) {
      const reply = await owner.get(`/api/data-exports/${encodeURIComponent(bad)}`).expect(404);
      expect(reply.body.message).toBe(DATA_EXPORT_NOT_READY_MESSAGE);
    }
    await t.agent().post('/api/data-exports').expect(401);
  });
});
