import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { generate } from 'otplib';
import { SECOND_FACTOR_MESSAGES, type SessionUser } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';

/** The code `secret`'s app shows `offsetSeconds` from now (30: the next one). */
const codeOf = (secret: string, offsetSeconds = 0): Promise<string> =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

const setsSession = (reply: Response): boolean => {
  const cookies: unknown = reply.headers['set-cookie'];
  const lines = Array.isArray(cookies) ? (cookies as string[]) : [];
  return lines.some((line) => line.startsWith('grove_access='));
};

/**
 * A second factor at sign-in (issue 34 item 3, docs/product.md#second-factor) on PostgreSQL:
 * setting up an authenticator app (QR code, confirmation, 10 recovery codes hashed at rest, the
 * secret sealed), the two-step sign-in (a single-use, 5-minute challenge; a code accepted once;
 * 5 wrong codes end the challenge; wrong codes count as failed sign-ins of the account), recovery
 * codes, turning it off, and each user's factor their own.
 */
describe('second factor: authenticator app and recovery codes (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1', THROTTLE_ACCOUNT_LOGIN_LIMIT: '6' });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Signs up and sets up an app; returns the owner, the app's secret and the recovery codes. */
  async function enrolled(firstName = 'Siobhán') {
    const owner = await t.signUp({ firstName, lastName: "O'Brien" });
    const started = await owner.agent.post('/api/account/second-factor/totp').expect(201);
    const { secret } = started.body as { secret: string };
    const confirmed = await owner.agent
      .post('/api/account/second-factor/totp/confirm')
      .send({ code: await codeOf(secret) })
      .expect(200);
    return { ...owner, secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
  }
  const login = (email: string, password: string, address = '203.0.113.1') =>
    t.agent().post('/api/auth/login').set('X-Forwarded-For', address).send({ email, password });
  const answer = (agent: TestAgent, challenge: string, code: string) =>
    agent.post('/api/auth/second-factor').send({ challenge, code });

  it('sets up an app: a QR code of the otpauth URI, a code confirms it, 10 recovery codes shown once and stored hashed, the secret sealed', async () => {
    const { agent, user } = await t.signUp({ firstName: 'Zoë' });
    expect((await agent.get('/api/account/second-factor').expect(200)).body).toEqual({
      totp: false,
      passkeys: 0,
      hasFactor: false,
      passwordSet: true,
      recoveryCodesLeft: 0,
      businessRequires: false,
    });
    const started = await agent.post('/api/account/second-factor/totp').expect(201);
    const { secret, uri, qrSvg } = started.body as { secret: string; uri: string; qrSvg: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain('issuer=Grove');
    expect(qrSvg).toMatch(/^<svg/);
    // Not yet confirmed: sign-in does not ask for a code.
    expect((await agent.get('/api/account/second-factor').expect(200)).body.totp).toBe(false);

    const badShape = await agent
      .post('/api/account/second-factor/totp/confirm')
      .send({ code: '12 34' })
      .expect(400);
    expect(badShape.body.message).toBe(SECOND_FACTOR_MESSAGES.codeInvalid);
    const right = await codeOf(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    const refused = await agent
      .post('/api/account/second-factor/totp/confirm')
      .send({ code: wrong })
      .expect(400);
    expect(refused.body.message).toBe(SECOND_FACTOR_MESSAGES.codeWrong);
    expect((await agent.get('/api/account/second-factor').expect(200)).body.totp).toBe(false);

    const confirmed = await agent
      .post('/api/account/second-factor/totp/confirm')
      .send({ code: right })
      .expect(200);
    const codes = confirmed.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    codes.forEach((code) => expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/));
    expect((await agent.get('/api/account/second-factor').expect(200)).body).toMatchObject({
      totp: true,
      recoveryCodesLeft: 10,
    });
    const [stored] = (await t.dataSource.query(
      `SELECT secret_sealed FROM user_totp WHERE user_id = $1`,
      [user.id],
    )) as { secret_sealed: string }[];
    expect(stored.secret_sealed).toMatch(/^v1\./);
    expect(stored.secret_sealed).not.toContain(secret);
    const hashes = (await t.dataSource.query(
      `SELECT code_hash FROM user_recovery_codes WHERE user_id = $1`,
      [user.id],
    )) as { code_hash: string }[];
    expect(hashes).toHaveLength(10);
    for (const { code_hash } of hashes)
      for (const code of codes) expect(code_hash).not.toContain(code.replace('-', ''));

    // A second setup is refused while one is on; the confirmed app stays.
    const again = await agent.post('/api/account/second-factor/totp').expect(409);
    expect(again.body.message).toBe(SECOND_FACTOR_MESSAGES.alreadyEnrolled);
  });

  it('signs in in two steps: the password gives a challenge and no session, the next code opens the session; a code and a challenge work once', async () => {
    const { body, secret } = await enrolled();
    const first = await login(body.email, body.password).expect(202);
    expect(first.body).toEqual({
      secondFactorRequired: true,
      challenge: expect.any(String),
      totp: true,
      passkey: false,
    });
    expect(setsSession(first)).toBe(false);
    const browser = t.agent();
    await browser.get('/api/auth/me').expect(401);

    // The code used to confirm the app is not accepted again (ASVS 2.8.4).
    const replay = await answer(browser, first.body.challenge, await codeOf(secret, -30));
    expect(replay.status).toBe(400);
    const next = await codeOf(secret, 30);
    const signedIn = await answer(browser, first.body.challenge, next).expect(200);
    expect(setsSession(signedIn)).toBe(true);
    expect((signedIn.body as SessionUser).email).toBe(body.email);
    expect((await browser.get('/api/auth/me').expect(200)).body.email).toBe(body.email);

    // The challenge is used; the same code on a new challenge is refused.
    const used = await answer(t.agent(), first.body.challenge, next).expect(401);
    expect(used.body.message).toBe(SECOND_FACTOR_MESSAGES.challengeExpired);
    const second = await login(body.email, body.password).expect(202);
    await answer(t.agent(), second.body.challenge, next).expect(400);
  });

  it('a recovery code signs in once (any case, with or without its dash)', async () => {
    const { agent, body, recoveryCodes } = await enrolled('Ana-Sofía');
    const first = await login(body.email, body.password).expect(202);
    await answer(t.agent(), first.body.challenge, ` ${recoveryCodes[3].toUpperCase()} `).expect(
      200,
    );
    const second = await login(body.email, body.password).expect(202);
    await answer(t.agent(), second.body.challenge, recoveryCodes[3].replace('-', '')).expect(400);
    await answer(t.agent(), second.body.challenge, recoveryCodes[4]).expect(200);
    expect((await agent.get('/api/account/second-factor').expect(200)).body.recoveryCodesLeft).toBe(
      8,
    );
  });

  it('ends a challenge after 5 wrong codes or 5 minutes (401: sign in again); bad input is 400 and counts nothing', async () => {
    const { body, secret } = await enrolled();
    const first = await login(body.email, body.password, '203.0.113.2').expect(202);
    const shape = await answer(t.agent(), first.body.challenge, 'not a code').expect(400);
    expect(shape.body.message).toBe(SECOND_FACTOR_MESSAGES.codeInvalid);
    await t.agent().post('/api/auth/second-factor').send({ code: '123456' }).expect(400);
    const right = await codeOf(secret, 30);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt += 1)
      await answer(t.agent(), first.body.challenge, wrong).expect(400);
    await answer(t.agent(), first.body.challenge, right).expect(401);
    await t.dataSource.query(`DELETE FROM second_factor_challenges`);

    const second = await login(body.email, body.password, '203.0.113.3').expect(202);
    await t.dataSource.query(
      `UPDATE second_factor_challenges SET expires_at = now() - interval '1 second'`,
    );
    const expired = await answer(t.agent(), second.body.challenge, right).expect(401);
    expect(expired.body.message).toBe(SECOND_FACTOR_MESSAGES.challengeExpired);
    await answer(t.agent(), 'x'.repeat(43), right).expect(401);
  });

  it('wrong codes count as failed sign-ins of the account: past THROTTLE_ACCOUNT_LOGIN_LIMIT its sign-in is paused (429)', async () => {
    const { body, secret } = await enrolled();
    const right = await codeOf(secret, 30);
    const wrong = right === '000000' ? '111111' : '000000';
    let challenge = (await login(body.email, body.password, '198.51.100.1').expect(202)).body
      .challenge as string;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      if (attempt === 5)
        challenge = (await login(body.email, body.password, '198.51.100.2').expect(202)).body
          .challenge;
      statuses.push((await answer(t.agent(), challenge, wrong)).status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429]);
    expect((await login(body.email, body.password, '198.51.100.3')).status).toBe(429);
  });

  it('turns the app off with a code, a recovery code or the password (not without one); sign-in then asks no code', async () => {
    const { agent, body, recoveryCodes } = await enrolled('Zoë');
    const none = await agent.post('/api/account/second-factor/totp/disable').send({}).expect(400);
    expect(none.body.message).toBe(SECOND_FACTOR_MESSAGES.disableNeedsProof);
    const wrongPassword = await agent
      .post('/api/account/second-factor/totp/disable')
      .send({ password: 'not my password at all' })
      .expect(400);
    expect(wrongPassword.body.message).toBe(SECOND_FACTOR_MESSAGES.disableProofWrong);
    await agent
      .post('/api/account/second-factor/totp/disable')
      .send({ code: 'zzzzz-zzzzz' })
      .expect(400);
    expect((await agent.get('/api/account/second-factor').expect(200)).body.totp).toBe(true);
    await agent
      .post('/api/account/second-factor/totp/disable')
      .send({ code: recoveryCodes[0] })
      .expect(204);
    expect((await agent.get('/api/account/second-factor').expect(200)).body).toMatchObject({
      totp: false,
      recoveryCodesLeft: 0,
    });
    await agent
      .post('/api/account/second-factor/totp/disable')
      .send({ password: body.password })
      .expect(409);
    await login(body.email, body.password).expect(200);
  });

  it('replaces the 10 recovery codes with a code or the password: the old ones stop working, the new ones are shown once; bad input changes nothing', async () => {
    const { agent, body, recoveryCodes, secret, user } = await enrolled('Ana-Sofía');
    const storedHashes = async () =>
      (
        (await t.dataSource.query(
          `SELECT code_hash FROM user_recovery_codes WHERE user_id = $1 ORDER BY code_hash`,
          [user.id],
        )) as { code_hash: string }[]
      ).map((row) => row.code_hash);
    const before = await storedHashes();

    const none = await agent.post('/api/account/second-factor/recovery-codes').send({}).expect(400);
    expect(none.body.message).toBe(SECOND_FACTOR_MESSAGES.disableNeedsProof);
    const shape = await agent
      .post('/api/account/second-factor/recovery-codes')
      .send({ code: '12' })
      .expect(400);
    expect(shape.body.message).toBe(SECOND_FACTOR_MESSAGES.codeInvalid);
    const wrong = await agent
      .post('/api/account/second-factor/recovery-codes')
      .send({ password: 'not the password at all' })
      .expect(400);
    expect(wrong.body.message).toBe(SECOND_FACTOR_MESSAGES.disableProofWrong);
    expect(await storedHashes()).toEqual(before);

    const byPassword = await agent
      .post('/api/account/second-factor/recovery-codes')
      .send({ password: body.password })
      .expect(200);
    const fresh = byPassword.body.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.every((code) => /^[0-9a-z]{5}-[0-9a-z]{5}$/.test(code))).toBe(true);
    expect(fresh.some((code) => recoveryCodes.includes(code))).toBe(false);
    expect((await agent.get('/api/account/second-factor').expect(200)).body.recoveryCodesLeft).toBe(
      10,
    );
    // Stored hashed: no code in clear.
    const stored = await storedHashes();
    expect(stored.some((hash) => fresh.includes(hash))).toBe(false);

    // An old code no longer signs in; a new one does.
    const first = await login(body.email, body.password).expect(202);
    const browser = t.agent();
    await answer(browser, first.body.challenge, recoveryCodes[0]).expect(400);
    const opened = await answer(browser, first.body.challenge, fresh[0]).expect(200);
    expect(setsSession(opened)).toBe(true);

    // With a code from the app (a recovery code is as good).
    const byCode = await agent
      .post('/api/account/second-factor/recovery-codes')
      .send({ code: await codeOf(secret, 30) })
      .expect(200);
    expect(byCode.body.recoveryCodes).toHaveLength(10);
    expect((byCode.body.recoveryCodes as string[]).includes(fresh[1])).toBe(false);
  });

  it('refuses new recovery codes without a second factor (409), and another owner never touches mine (tenant isolation)', async () => {
    const bare = await t.signUp({ firstName: 'Zoë', lastName: "D'Arcy-Nguyễn" });
    const refused = await bare.agent
      .post('/api/account/second-factor/recovery-codes')
      .send({ password: bare.body.password })
      .expect(409);
    expect(refused.body.message).toBe(SECOND_FACTOR_MESSAGES.noFactor);
    expect(
      await t.dataSource.query(`SELECT 1 FROM user_recovery_codes WHERE user_id = $1`, [
        bare.user.id,
      ]),
    ).toHaveLength(0);

    const mine = await enrolled('Siobhán');
    const other = await enrolled('Ana-Sofía');
    // The other owner's own recovery code proves only the other owner: mine stay.
    await other.agent
      .post('/api/account/second-factor/recovery-codes')
      .send({ code: mine.recoveryCodes[0] })
      .expect(400);
    const first = await login(mine.body.email, mine.body.password).expect(202);
    await answer(t.agent(), first.body.challenge, mine.recoveryCodes[0]).expect(200);
  });

  it("keeps each user's factor their own (tenant isolation): another owner's codes never answer a challenge, and their status is untouched", async () => {
    const a = await enrolled('Renée');
    const b = await enrolled('Mánus');
    const challenge = (await login(a.body.email, a.body.password).expect(202)).body.challenge;
    await answer(t.agent(), challenge, b.recoveryCodes[0]).expect(400);
    await answer(t.agent(), challenge, await codeOf(b.secret, 30)).expect(400);
    await b.agent
      .post('/api/account/second-factor/totp/disable')
      .send({ code: a.recoveryCodes[0] })
      .expect(400);
    expect((await a.agent.get('/api/account/second-factor').expect(200)).body).toMatchObject({
      totp: true,
      recoveryCodesLeft: 10,
    });
    expect((await b.agent.get('/api/account/second-factor').expect(200)).body).toMatchObject({
      totp: true,
      recoveryCodesLeft: 10,
    });
    // B's requirement is B's business's alone.
    await b.agent.put('/api/settings/second-factor').send({ required: true }).expect(200);
    expect(
      (await a.agent.get('/api/account/second-factor').expect(200)).body.businessRequires,
    ).toBe(false);
    const aAgain = await login(a.body.email, a.body.password).expect(202);
    expect(aAgain.body.secondFactorRequired).toBe(true);
    // Without a session: 401.
    await t.agent().get('/api/account/second-factor').expect(401);
    await t.agent().post('/api/account/second-factor/totp').expect(401);
  });

  it('the owner requires a second factor of every member of staff: one without is told to set one up at sign-in; bad input and a requirement without their own app are refused', async () => {
    const owner = await t.signUp({ firstName: 'Zoë', lastName: "D'Arcy-Nguyễn" });
    const bad = await owner.agent
      .put('/api/settings/second-factor')
      .send({ required: 'yes' })
      .expect(400);
    expect(bad.body.message).toBe(SECOND_FACTOR_MESSAGES.requirementInvalid);
    const own = await owner.agent
      .put('/api/settings/second-factor')
      .send({ required: true })
      .expect(409);
    expect(own.body.message).toBe(SECOND_FACTOR_MESSAGES.requireOwnFirst);
    expect(
      (await owner.agent.get('/api/account/second-factor').expect(200)).body.businessRequires,
    ).toBe(false);

    const { secret } = (await owner.agent.post('/api/account/second-factor/totp').expect(201))
      .body as { secret: string };
    await owner.agent
      .post('/api/account/second-factor/totp/confirm')
      .send({ code: await codeOf(secret) })
      .expect(200);
    const set = await owner.agent
      .put('/api/settings/second-factor')
      .send({ required: true })
      .expect(200);
    expect(set.body).toMatchObject({ totp: true, businessRequires: true });

    // A member of staff of that business without a factor: signed in, told to set one up.
    const email = `desk.${process.pid}.${Date.now()}@zoes.example.com`;
    await t.dataSource.query(
      `INSERT INTO users (business_id, email, first_name, last_name, role, password_hash)
       SELECT business_id, $2, 'Ana-Sofía', 'Núñez', 'front_desk', password_hash FROM users WHERE id = $1`,
      [owner.user.id, email],
    );
    const desk = await login(email, owner.body.password).expect(200);
    expect((desk.body as SessionUser).secondFactorSetupRequired).toBe(true);
    // An owner of another business is not.
    const other = await t.signUp();
    const otherLogin = await login(other.body.email, other.body.password).expect(200);
    expect(otherLogin.body).not.toHaveProperty('secondFactorSetupRequired');

    await owner.agent.put('/api/settings/second-factor').send({ required: false }).expect(200);
    const after = await login(email, owner.body.password).expect(200);
    expect(after.body).not.toHaveProperty('secondFactorSetupRequired');
  });
});

/**
 * The server-side gate of the owner's requirement (`SecondFactorGate`, docs/product.md#second-factor):
 * a member of staff without a second factor gets 403 'Your business asks…' on every signed-in
 * route but those that set one up (and who is signed in, the account read, signing out), from their
 * next request on; setting one up, or the owner lifting the requirement, opens the rest at once.
 */
describe('second factor: the requirement is enforced by the API (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** An owner with an app, and a front-desk member of staff (signed in, no factor yet). */
  async function businessWithDesk() {
    const owner = await t.signUp({ firstName: 'Zoë', lastName: "D'Arcy-Nguyễn" });
    const { secret } = (await owner.agent.post('/api/account/second-factor/totp').expect(201))
      .body as { secret: string };
    await owner.agent
      .post('/api/account/second-factor/totp/confirm')
      .send({ code: await codeOf(secret) })
      .expect(200);
    const email = `desk.${process.pid}.${Date.now()}.${Math.random()}@zoes.example.com`;
    await t.dataSource.query(
      `INSERT INTO users (business_id, email, first_name, last_name, role, password_hash)
       SELECT business_id, $2, 'Ana-Sofía', 'Núñez', 'front_desk', password_hash FROM users WHERE id = $1`,
      [owner.user.id, email],
    );
    const desk = t.agent();
    await desk.post('/api/auth/login').send({ email, password: owner.body.password }).expect(200);
    return { owner, desk };
  }

  it('refuses a member of staff without a factor every route but setting one up, with a message the web shows; nothing is written', async () => {
    const { owner, desk } = await businessWithDesk();
    // Signed in before the requirement: open until the owner requires it.
    await desk.get('/api/members').expect(200);
    await owner.agent.put('/api/settings/second-factor').send({ required: true }).expect(200);

    const refused = await desk.get('/api/members').expect(403);
    expect(refused.body.message).toBe(SECOND_FACTOR_MESSAGES.setupRequired);
    const write = await desk
      .post('/api/members')
      .send({ name: 'Siobhán Kelly', email: 'siobhan.kelly@example.ie' })
      .expect(403);
    expect(write.body.message).toBe(SECOND_FACTOR_MESSAGES.setupRequired);
    expect(
      await t.dataSource.query(`SELECT 1 FROM members WHERE email = 'siobhan.kelly@example.ie'`),
    ).toHaveLength(0);

    // Who is signed in, the account, and setting up a factor stay open.
    await desk.get('/api/auth/me').expect(200);
    await desk.get('/api/account').expect(200);
    expect((await desk.get('/api/account/second-factor').expect(200)).body).toMatchObject({
      totp: false,
      businessRequires: true,
    });
    await desk.get('/api/account/passkeys').expect(200);
    const { secret } = (await desk.post('/api/account/second-factor/totp').expect(201)).body as {
      secret: string;
    };
    await desk
      .post('/api/account/second-factor/totp/confirm')
      .send({ code: await codeOf(secret) })
      .expect(200);
    // Set up: the rest opens on the next request.
    await desk.get('/api/members').expect(200);
  });

  it("lets a member of staff without a factor list and end their own sign-ins (ASVS 3.3), never another's; every other account route stays refused", async () => {
    const { owner, desk } = await businessWithDesk();
    const deskEmail = ((await desk.get('/api/auth/me').expect(200)).body as SessionUser).email;
    // The same person signed in on two more browsers.
    const phone = t.agent();
    const tablet = t.agent();
    for (const browser of [phone, tablet]) {
      await browser
        .post('/api/auth/login')
        .send({ email: deskEmail, password: owner.body.password })
        .expect(200);
    }
    await owner.agent.put('/api/settings/second-factor').send({ required: true }).expect(200);
    await desk.get('/api/members').expect(403);

    // Where you're signed in: their own three sign-ins, this browser first; none of the owner's.
    const listed = (await desk.get('/api/account/sessions').expect(200)).body as {
      id: string;
      current: boolean;
    }[];
    expect(listed).toHaveLength(3);
    expect(listed.map((s) => s.current)).toEqual([true, false, false]);
    const ownerIds = (
      (await owner.agent.get('/api/account/sessions').expect(200)).body as {
        id: string;
      }[]
    ).map((s) => s.id);
    expect(listed.some((s) => ownerIds.includes(s.id))).toBe(false);

    // Ends one of their own; another person's sign-in is never touched (404, still live).
    await desk.delete(`/api/account/sessions/${listed[1].id}`).expect(204);
    const notMine = await desk.delete(`/api/account/sessions/${ownerIds[0]}`).expect(404);
    expect(notMine.body.message).toBe('Sign-in not found');
    await owner.agent.get('/api/auth/me').expect(200);
    // Signs out everywhere else: the remaining other browser ends, this one and the owner stay.
    expect((await desk.post('/api/account/sessions/sign-out-others').expect(200)).body).toEqual({
      ended: 1,
    });
    await phone.get('/api/auth/me').expect(401);
    await tablet.get('/api/auth/me').expect(401);
    expect((await desk.get('/api/account/sessions').expect(200)).body).toHaveLength(1);
    await owner.agent.get('/api/auth/me').expect(200);

    // Everything else of the account stays refused with the setup message, and writes nothing.
    const nameBefore = await t.dataSource.query(`SELECT first_name FROM users WHERE email = $1`, [
      deskEmail,
    ]);
    const refusals = await Promise.all([
      desk.patch('/api/account').send({ firstName: 'Siobhán' }),
      desk
        .post('/api/account/password')
        .send({ currentPassword: owner.body.password, newPassword: 'a longer pass phrase 2026' }),
      desk.post('/api/support/issues').send({ message: 'Help' }),
      desk.get('/api/getting-started'),
    ]);
    for (const reply of refusals) {
      expect(reply.status).toBe(403);
      expect(reply.body.message).toBe(SECOND_FACTOR_MESSAGES.setupRequired);
    }
    expect(
      await t.dataSource.query(`SELECT first_name FROM users WHERE email = $1`, [deskEmail]),
    ).toEqual(nameBefore);
  });

  it('opens again when the owner lifts the requirement; another business is never affected (tenant isolation); signing out stays open', async () => {
    const { owner, desk } = await businessWithDesk();
    const other = await businessWithDesk();
    await owner.agent.put('/api/settings/second-factor').send({ required: true }).expect(200);
    await desk.get('/api/members').expect(403);
    // Another business's staff (its owner did not require it) are not refused.
    await other.desk.get('/api/members').expect(200);
    // The owners themselves have an app.
    await owner.agent.get('/api/members').expect(200);

    await owner.agent.put('/api/settings/second-factor').send({ required: false }).expect(200);
    await desk.get('/api/members').expect(200);

    await owner.agent.put('/api/settings/second-factor').send({ required: true }).expect(200);
    await desk.post('/api/auth/logout').expect(204);
    await desk.get('/api/auth/me').expect(401);
  });
});
