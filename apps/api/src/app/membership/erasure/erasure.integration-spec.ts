import type TestAgent from 'supertest/lib/agent';
import {
  ERASED_EMAIL_MESSAGE,
  ERASED_EMAIL_ROW_MESSAGE,
  ERASED_MEMBER_NAME,
  MEMBER_ALREADY_ERASED_MESSAGE,
  type MemberImportUpload,
} from '@grove/contracts';
import { createTestApp, treeBody, type TestApp } from '../../../../test/test-app';

/**
 * Erasing a member's personal data on request (issue 34 item 6, docs/product.md#data-rights) on
 * PostgreSQL: the name and email are gone from every screen and file, prices and branches stay
 * (the referrer's price unchanged), the email is kept only as a keyed digest that makes adding or
 * importing it again ask first, and each business erases only its own members.
 */
describe('erasing a member (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function family(owner: TestAgent) {
    const referrer = await owner
      .post('/api/members')
      .send(treeBody("Siobhán O'Brien", 'siobhan.obrien@example.ie', 12_000, 1_500))
      .expect(201);
    const friend = await owner
      .post(`/api/members/${referrer.body.id}/branches`)
      .send(treeBody("Zoë D'Arcy-Nguyễn", 'Zoe.Darcy@example.fr', 9_000, 1_000))
      .expect(201);
    return { referrerId: referrer.body.id as string, friendId: friend.body.id as string };
  }

  it("erases the name and email everywhere; the referrer's price and branch count stay", async () => {
    const { agent: owner } = await t.signUp();
    const { referrerId, friendId } = await family(owner);
    const before = (await owner.get(`/api/members/${referrerId}`).expect(200)).body;
    expect(before.newPriceCents).toBe(10_500);

    await owner.post(`/api/members/${friendId}/erase`).expect(204);

    const referrer = (await owner.get(`/api/members/${referrerId}`).expect(200)).body;
    expect(referrer.newPriceCents).toBe(10_500);
    expect(referrer.branches).toBe(1);
    const erased = (await owner.get(`/api/members/${friendId}`).expect(200)).body;
    expect(erased).toMatchObject({ memberName: ERASED_MEMBER_NAME, memberEmail: '' });
    const list = await owner.get('/api/members?pageSize=50').expect(200);
    expect(JSON.stringify(list.body)).not.toContain('Zoë');
    const csv = await owner.get('/api/members-csv/export').expect(200);
    expect(csv.text).not.toMatch(/Zoë|zoe/i);
    const referrers = await owner.get('/api/analytics/referrers?period=365').expect(200);
    expect(JSON.stringify(referrers.body)).not.toContain('Zoë');
    const rows: { email_hash: string }[] = await t.dataSource.query(
      `SELECT email_hash FROM erased_member_emails`,
    );
    expect(JSON.stringify(rows)).not.toMatch(/zoe/i);

    const again = await owner.post(`/api/members/${friendId}/erase`).expect(409);
    expect(again.body.message).toBe(MEMBER_ALREADY_ERASED_MESSAGE);
  });

  it('asks before the erased email is added or imported again', async () => {
    const { agent: owner } = await t.signUp();
    const { friendId } = await family(owner);
    await owner.post(`/api/members/${friendId}/erase`).expect(204);

    // Another spelling of the same address (case, dots) is the same person.
    const refused = await owner
      .post('/api/members')
      .send(treeBody("Zoë D'Arcy-Nguyễn", 'ZOE.DARCY@example.fr'))
      .expect(409);
    expect(refused.body).toMatchObject({
      message: ERASED_EMAIL_MESSAGE,
      fieldErrors: { memberEmail: ERASED_EMAIL_MESSAGE },
    });

    const file = [
      'Name,Email,Price,Discount',
      "Zoë D'Arcy-Nguyễn,zoe.darcy@example.fr,90,10",
      'Ana-Sofía Pérez,ana.sofia@example.es,80,10',
    ].join('\n');
    const up = (
      await owner
        .post('/api/members-csv/imports')
        .set('Content-Type', 'text/csv')
        .send(file)
        .expect(201)
    ).body as MemberImportUpload;
    const dry = await owner
      .post(`/api/members-csv/imports/${up.importId}/dry-run`)
      .send({ mapping: up.mapping })
      .expect(200);
    expect(dry.body.counts).toMatchObject({ add: 1, error: 1 });
    expect(dry.body.rows[0]).toMatchObject({
      outcome: 'error',
      messages: [ERASED_EMAIL_ROW_MESSAGE],
    });
    const confirmed = await owner
      .post(`/api/members-csv/imports/${up.importId}/dry-run`)
      .send({ mapping: up.mapping, importErased: true })
      .expect(200);
    expect(confirmed.body.counts).toMatchObject({ add: 2, error: 0 });

    await owner
      .post('/api/members')
      .send({ ...treeBody("Zoë D'Arcy-Nguyễn", 'zoe.darcy@example.fr'), confirmErased: true })
      .expect(201);
  });

  it("erases only the business's own members; bad input changes nothing", async () => {
    const { agent: owner } = await t.signUp();
    const { agent: other } = await t.signUp();
    const { friendId } = await family(owner);
    const stranger = await other.post(`/api/members/${friendId}/erase`).expect(404);
    expect(stranger.body.message).toBe('Member not found');
    for (const bad of ['not-a-uuid', '00000000-0000-0000-0000-000000000000'])
      await owner.post(`/api/members/${bad}/erase`).expect(404);
    const bool = await owner
      .post('/api/members')
      .send({ ...treeBody('Ana-Sofía', 'ana@example.es'), confirmErased: 'yes' })
      .expect(400);
    expect(bool.body.message).toBe('confirmErased must be true or false');
    const still = (await owner.get(`/api/members/${friendId}`).expect(200)).body;
    expect(still.memberName).toBe("Zoë D'Arcy-Nguyễn");
    await t.agent().post(`/api/members/${friendId}/erase`).expect(401);
  });
});
