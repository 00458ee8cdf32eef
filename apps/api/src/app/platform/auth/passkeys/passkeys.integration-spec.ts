import type TestAgent from 'supertest/lib/agent';
import { PASSKEY_MESSAGES, SECOND_FACTOR_MESSAGES, type SessionUser } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import { SoftAuthenticator } from '../../../../../test/soft-authenticator';
import { AppConfig } from '../../config/app-config';
import { hashPassword } from '../auth-tokens';

type Options = { challenge: string; rp: { id: string }; user: { id: string }; rpId?: string };

/**
 * Passkeys (issue 34 item 3, docs/product.md#passkeys, docs/decisions/passkeys.md) on
 * PostgreSQL with a software authenticator (ES256, attestation 'none'): registering (named,
 * listed, removed), signing in without a password and as the step after it, challenges stored
 * server-side and used once within 5 minutes, the RP ID and origin PUBLIC_ORIGIN's, user
 * verification required, counters checked; bad input 4xx with nothing written; each user's
 * passkeys their own.
 */
describe('passkeys (integration)', () => {
  let t: TestApp;
  let origin: string;
  beforeAll(async () => {
    t = await createTestApp();
    origin = t.app.get(AppConfig).publicOrigin;
  });
  afterAll(async () => {
    await t.close();
  });

  const registrationOptions = async (agent: TestAgent): Promise<Options> =>
    (await agent.post('/api/account/passkeys/options').expect(200)).body.options as Options;
  const signInOptions = async (challenge?: string): Promise<Options> =>
    (
      await t
        .agent()
        .post('/api/auth/passkey/options')
        .send(challenge ? { challenge } : {})
        .expect(200)
    ).body.options as Options;

  /** An owner with one passkey (named "Siobhán’s laptop"). */
  async function withPasskey(firstName = 'Siobhán') {
    const owner = await t.signUp({ firstName, lastName: "O'Brien" });
    const key = new SoftAuthenticator(origin);
    const options = await registrationOptions(owner.agent);
    const added = await owner.agent
      .post('/api/account/passkeys')
      .send({ name: `${firstName}’s laptop`, response: key.register(options) })
      .expect(201);
    return {
      ...owner,
      key,
      added: added.body as { passkey: { id: string }; recoveryCodes?: string[] },
    };
  }

  it('adds a named passkey (RP ID and origin from PUBLIC_ORIGIN, user verification, attestation none); the first factor brings 10 recovery codes; it is listed', async () => {
    const owner = await t.signUp({ firstName: 'Zoë', lastName: "D'Arcy-Nguyễn" });
    const options = await registrationOptions(owner.agent);
    expect(options.rp.id).toBe(new URL(origin).hostname);
    expect(options).toMatchObject({
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: 300_000,
    });
    const key = new SoftAuthenticator(origin);
    const added = await owner.agent
      .post('/api/account/passkeys')
      .send({ name: '  Zoë’s iPhone ', response: key.register(options) })
      .expect(201);
    expect(added.body.passkey).toMatchObject({ name: 'Zoë’s iPhone', lastUsedAt: null });
    expect(added.body.recoveryCodes).toHaveLength(10);
    const list = await owner.agent.get('/api/account/passkeys').expect(200);
    expect(list.body).toEqual([added.body.passkey]);
    expect((await owner.agent.get('/api/account/second-factor').expect(200)).body).toMatchObject({
      totp: false,
      recoveryCodesLeft: 10,
    });

    // A second passkey: excluded from nothing, no new recovery codes; the first is excluded.
    const next = await registrationOptions(owner.agent);
    expect(
      (next as unknown as { excludeCredentials: { id: string }[] }).excludeCredentials,
    ).toEqual([expect.objectContaining({ id: key.id })]);
    const other = new SoftAuthenticator(origin);
    const second = await owner.agent
      .post('/api/account/passkeys')
      .send({ name: 'YubiKey', response: other.register(next) })
      .expect(201);
    expect(second.body).not.toHaveProperty('recoveryCodes');
  });

  it('signs in with a passkey and no password: the session opens, the counter and last use are recorded; the challenge works once', async () => {
    const { key, user, added } = await withPasskey();
    const options = await signInOptions();
    expect(options).toMatchObject({ userVerification: 'required', rpId: new URL(origin).hostname });
    const answer = key.assert(options);
    const browser = t.agent();
    const signedIn = await browser.post('/api/auth/passkey').send({ response: answer }).expect(200);
    expect((signedIn.body as SessionUser).id).toBe(user.id);
    expect((await browser.get('/api/auth/me').expect(200)).body.id).toBe(user.id);
    const [row] = (await t.dataSource.query(
      `SELECT counter, last_used_at FROM user_passkeys WHERE id = $1`,
      [added.passkey.id],
    )) as { counter: string; last_used_at: Date | null }[];
    expect(Number(row.counter)).toBe(2);
    expect(row.last_used_at).not.toBeNull();

    // The same answer again: its challenge is used.
    const replay = await t.agent().post('/api/auth/passkey').send({ response: answer }).expect(401);
    expect(replay.body.message).toBe(PASSKEY_MESSAGES.signInFailed);
  });

  it('asks for a new password at a passkey sign-in once a password sign-in found the password too short, until it changes (docs/decisions/passkeys.md)', async () => {
    const { key, user, body } = await withPasskey('Siobhán');
    const other = await withPasskey('Zoë');
    // As stored before the 12-character rule.
    await t.dataSource.query(`UPDATE users SET password_hash = $2 WHERE id = $1`, [
      user.id,
      await hashPassword('gym12345'),
    ]);
    const passkeySignIn = async (authenticator: SoftAuthenticator) =>
      (
        await t
          .agent()
          .post('/api/auth/passkey')
          .send({ response: authenticator.assert(await signInOptions()) })
          .expect(200)
      ).body as SessionUser;
    // Grove keeps only the hash: a password no sign-in has typed since cannot be judged.
    expect((await passkeySignIn(key)).passwordChangeRequired).toBeUndefined();
    // A wrong password marks nothing; the right one (its step left unanswered) is found too short.
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: body.email, password: 'gym1234' })
      .expect(401);
    expect((await passkeySignIn(key)).passwordChangeRequired).toBeUndefined();
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: body.email, password: 'gym12345' })
      .expect(202);
    const signedIn = await passkeySignIn(key);
    expect(signedIn.passwordChangeRequired).toBe(true);
    // Only that user: another owner's passkey sign-in is not asked.
    expect((await passkeySignIn(other.key)).passwordChangeRequired).toBeUndefined();

    // A new password ends the request.
    const browser = t.agent();
    await browser
      .post('/api/auth/passkey')
      .send({ response: key.assert(await signInOptions()) })
      .expect(200);
    await browser
      .post('/api/account/password')
      .send({ currentPassword: 'gym12345', newPassword: 'squats at seven am' })
      .expect(200);
    expect((await passkeySignIn(key)).passwordChangeRequired).toBeUndefined();
  });

  it('refuses a sign-in past 5 minutes, from another origin or RP ID, without user verification, or with a counter that did not grow', async () => {
    const { key } = await withPasskey('Ana-Sofía');
    const refused = async (bend: Parameters<SoftAuthenticator['assert']>[1], expire = false) => {
      const options = await signInOptions();
      if (expire)
        await t.dataSource.query(
          `UPDATE webauthn_challenges SET expires_at = now() - interval '1 second' WHERE challenge = $1`,
          [options.challenge],
        );
      const reply = await t
        .agent()
        .post('/api/auth/passkey')
        .send({ response: key.assert(options, bend) })
        .expect(401);
      expect(reply.body.message).toBe(PASSKEY_MESSAGES.signInFailed);
    };
    await refused({}, true);
    await refused({ origin: 'https://grove.example.net' });
    await refused({ rpId: 'grove.example.net' });
    await refused({ unverified: true });
    await refused({ counter: 1 });
    // A right one still works afterwards.
    await t
      .agent()
      .post('/api/auth/passkey')
      .send({ response: key.assert(await signInOptions()) })
      .expect(200);
  });

  it('answers the login’s second step: the password gives a challenge offering the passkey; only that user’s passkey answers it', async () => {
    const mine = await withPasskey('Siobhán');
    const theirs = await withPasskey('Zoë');
    const login = await t
      .agent()
      .post('/api/auth/login')
      .send({ email: mine.body.email, password: mine.body.password })
      .expect(202);
    expect(login.body).toMatchObject({ secondFactorRequired: true, totp: false, passkey: true });
    const options = await signInOptions(login.body.challenge);
    expect((options as unknown as { allowCredentials: { id: string }[] }).allowCredentials).toEqual(
      [expect.objectContaining({ id: mine.key.id })],
    );
    // Another owner's passkey cannot answer my step (tenant isolation).
    await t
      .agent()
      .post('/api/auth/passkey')
      .send({ response: theirs.key.assert(options) })
      .expect(401);
    const again = await signInOptions(login.body.challenge);
    const signedIn = await t
      .agent()
      .post('/api/auth/passkey')
      .send({ response: mine.key.assert(again) })
      .expect(200);
    expect(signedIn.body.id).toBe(mine.user.id);
    // The password step is over: its challenge no longer takes a code or a passkey.
    const code = mine.added.recoveryCodes?.[0] ?? '';
    const ended = await t
      .agent()
      .post('/api/auth/second-factor')
      .send({ challenge: login.body.challenge, code })
      .expect(401);
    expect(ended.body.message).toBe(SECOND_FACTOR_MESSAGES.challengeExpired);
    await t
      .agent()
      .post('/api/auth/passkey/options')
      .send({ challenge: login.body.challenge })
      .expect(401);
  });

  it('refuses bad input with a clear 4xx and writes nothing', async () => {
    const owner = await t.signUp({ firstName: 'Ana-Sofía', lastName: 'Núñez' });
    const key = new SoftAuthenticator(origin);
    const count = async () =>
      (
        (await t.dataSource.query(
          `SELECT count(*)::int AS n FROM user_passkeys WHERE user_id = $1`,
          [owner.user.id],
        )) as { n: number }[]
      )[0]?.n;
    const add = async (body: object, status: number, message: string) => {
      const reply = await owner.agent.post('/api/account/passkeys').send(body).expect(status);
      expect(reply.body.message).toBe(message);
    };
    const options = await registrationOptions(owner.agent);
    const response = key.register(options);
    await add({ name: '', response }, 400, PASSKEY_MESSAGES.nameMissing);
    await add({ name: 'x'.repeat(61), response }, 400, PASSKEY_MESSAGES.nameTooLong);
    await add({ name: 'Phone\u0007', response }, 400, PASSKEY_MESSAGES.nameInvalid);
    await add({ name: 'Phone' }, 400, PASSKEY_MESSAGES.responseMissing);
    await add({ name: 'Phone', response: 'nope' }, 400, PASSKEY_MESSAGES.responseMissing);
    await add(
      { name: 'Phone', response: { id: 1, response: {} } },
      400,
      PASSKEY_MESSAGES.registrationFailed,
    );
    // Another origin, or no user verification: refused (and the challenge is used up).
    await add(
      {
        name: 'Phone',
        response: key.register(await registrationOptions(owner.agent), {
          origin: 'https://evil.example',
        }),
      },
      400,
      PASSKEY_MESSAGES.registrationFailed,
    );
    await add(
      {
        name: 'Phone',
        response: key.register(await registrationOptions(owner.agent), { unverified: true }),
      },
      400,
      PASSKEY_MESSAGES.registrationFailed,
    );
    // A challenge of no registration (made up) is refused.
    await add(
      { name: 'Phone', response: key.register({ ...options, challenge: 'bm90LWEtY2hhbGxlbmdl' }) },
      400,
      PASSKEY_MESSAGES.registrationFailed,
    );
    expect(await count()).toBe(0);

    // Sign-in: garbage is 400 or 401, never 500.
    await t.agent().post('/api/auth/passkey').send({}).expect(400);
    await t
      .agent()
      .post('/api/auth/passkey')
      .send({ response: { id: 'abc' } })
      .expect(401);
    await t
      .agent()
      .post('/api/auth/passkey')
      .send({ response: { id: key.id, response: 7 } })
      .expect(401);
    await t.agent().post('/api/auth/passkey/options').send({ challenge: 'made-up' }).expect(401);
    await owner.agent
      .post('/api/account/passkeys/not-a-uuid/remove')
      .send({ password: owner.body.password })
      .expect(400);
  });

  it('removes a passkey only with a code, a recovery code or the password: the session alone is refused and nothing is removed', async () => {
    const { agent, added, body } = await withPasskey('Zoë');
    const remove = (proof: object) =>
      agent.post(`/api/account/passkeys/${added.passkey.id}/remove`).send(proof);
    for (const [proof, message] of [
      [{}, SECOND_FACTOR_MESSAGES.disableNeedsProof],
      [{ password: '' }, SECOND_FACTOR_MESSAGES.disableNeedsProof],
      [{ password: 7 }, SECOND_FACTOR_MESSAGES.disableProofWrong],
      [{ password: 'not my password' }, SECOND_FACTOR_MESSAGES.disableProofWrong],
      [{ code: '123456' }, SECOND_FACTOR_MESSAGES.disableProofWrong],
      [{ code: 'aaaaa-bbbbb' }, SECOND_FACTOR_MESSAGES.disableProofWrong],
      [{ code: 'x'.repeat(41) }, SECOND_FACTOR_MESSAGES.codeInvalid],
    ] as const) {
      const refused = await remove(proof).expect(400);
      expect(refused.body.message).toBe(message);
    }
    // The old route without a proof is gone.
    await agent.delete(`/api/account/passkeys/${added.passkey.id}`).expect(404);
    expect((await agent.get('/api/account/passkeys').expect(200)).body).toHaveLength(1);
    expect((await agent.get('/api/account/second-factor').expect(200)).body.recoveryCodesLeft).toBe(
      10,
    );
    await remove({ password: body.password }).expect(204);
    expect((await agent.get('/api/account/passkeys').expect(200)).body).toEqual([]);
  });

  it('keeps each user’s passkeys their own (tenant isolation): not listed, not removed, not registered twice', async () => {
    const mine = await withPasskey('Siobhán');
    const other = await t.signUp({ firstName: 'Zoë' });
    expect((await other.agent.get('/api/account/passkeys').expect(200)).body).toEqual([]);
    // Proven with their own password, another owner still cannot remove my passkey.
    const gone = await other.agent
      .post(`/api/account/passkeys/${mine.added.passkey.id}/remove`)
      .send({ password: other.body.password })
      .expect(404);
    expect(gone.body.message).toBe(PASSKEY_MESSAGES.notFound);
    expect((await mine.agent.get('/api/account/passkeys').expect(200)).body).toHaveLength(1);
    // The same credential cannot be added to another account.
    const taken = await other.agent
      .post('/api/account/passkeys')
      .send({
        name: 'Borrowed',
        response: mine.key.register(await registrationOptions(other.agent)),
      })
      .expect(409);
    expect(taken.body.message).toBe(PASSKEY_MESSAGES.alreadyRegistered);
  });

  it('refuses to remove the last passkey of an account without a password of its own (409, nothing removed, the code unused); another person’s passkey stays 404', async () => {
    const { agent, user, added, body } = await withPasskey('Siobhán');
    // As an account that joined with a passkey stores it (team invitation, ChosenPassword).
    await t.dataSource.query(`UPDATE users SET password_chosen = false WHERE id = $1`, [user.id]);
    const [code] = added.recoveryCodes ?? [];
    const remove = (id: string, proof: object) =>
      agent.post(`/api/account/passkeys/${id}/remove`).send(proof);
    const refused = await remove(added.passkey.id, { code }).expect(409);
    expect(refused.body.message).toBe(PASSKEY_MESSAGES.lastWithoutPassword);
    expect((await agent.get('/api/account/passkeys').expect(200)).body).toHaveLength(1);
    expect((await agent.get('/api/account/second-factor').expect(200)).body).toMatchObject({
      passwordSet: false,
      recoveryCodesLeft: 10,
    });

    // Another business's person, proven with their own password: 404 as ever, nothing told.
    const other = await withPasskey('Zoë');
    await t.dataSource.query(`UPDATE users SET password_chosen = false WHERE id = $1`, [
      other.user.id,
    ]);
    const notTheirs = await other.agent
      .post(`/api/account/passkeys/${added.passkey.id}/remove`)
      .send({ code: other.added.recoveryCodes?.[0] })
      .expect(404);
    expect(notTheirs.body.message).toBe(PASSKEY_MESSAGES.notFound);

    // With a second passkey either one may go, then the one left may not.
    const second = await agent
      .post('/api/account/passkeys')
      .send({
        name: 'YubiKey',
        response: new SoftAuthenticator(origin).register(await registrationOptions(agent)),
      })
      .expect(201);
    await remove(added.passkey.id, { code }).expect(204);
    const last = await remove(second.body.passkey.id, { password: body.password }).expect(409);
    expect(last.body.message).toBe(PASSKEY_MESSAGES.lastWithoutPassword);
    expect((await agent.get('/api/account/passkeys').expect(200)).body).toEqual([
      expect.objectContaining({ id: second.body.passkey.id }),
    ]);

    // Once the person has a password of their own, the last passkey may go.
    await t.dataSource.query(`UPDATE users SET password_chosen = true WHERE id = $1`, [user.id]);
    await remove(second.body.passkey.id, { password: body.password }).expect(204);
    expect((await agent.get('/api/account/passkeys').expect(200)).body).toEqual([]);
  });

  it('removes a passkey: it no longer signs in; with no factor left the recovery codes go and the password alone signs in', async () => {
    const { agent, key, added, body } = await withPasskey('Ana-Sofía');
    const [code, next] = added.recoveryCodes ?? [];
    // A recovery code given for a passkey that is not there stays unused.
    await agent
      .post('/api/account/passkeys/00000000-0000-4000-8000-000000000000/remove')
      .send({ code })
      .expect(404);
    expect((await agent.get('/api/account/second-factor').expect(200)).body.recoveryCodesLeft).toBe(
      10,
    );
    await agent.post(`/api/account/passkeys/${added.passkey.id}/remove`).send({ code }).expect(204);
    const again = await agent
      .post(`/api/account/passkeys/${added.passkey.id}/remove`)
      .send({ password: body.password })
      .expect(404);
    expect(again.body.message).toBe(PASSKEY_MESSAGES.notFound);
    expect(next).toBeDefined();
    expect((await agent.get('/api/account/passkeys').expect(200)).body).toEqual([]);
    await t
      .agent()
      .post('/api/auth/passkey')
      .send({ response: key.assert(await signInOptions()) })
      .expect(401);
    expect((await agent.get('/api/account/second-factor').expect(200)).body.recoveryCodesLeft).toBe(
      0,
    );
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: body.email, password: body.password })
      .expect(200);
  });

  it('a passkey meets the business’s requirement: a member of staff who adds one is let through', async () => {
    const { agent: owner, user } = await withPasskey('Zoë');
    // The owner's passkey is their own factor: they may require one of everyone.
    await owner.put('/api/settings/second-factor').send({ required: true }).expect(200);
    const email = `desk.passkey.${process.pid}.${Date.now()}@zoes.example.com`;
    await t.dataSource.query(
      `INSERT INTO users (business_id, email, first_name, last_name, role, password_hash)
       SELECT business_id, $2, 'Siobhán', 'Kelly', 'front_desk', password_hash FROM users WHERE id = $1`,
      [user.id, email],
    );
    const desk = t.agent();
    await desk
      .post('/api/auth/login')
      .send({ email, password: 'correct horse battery' })
      .expect(200);
    await desk.get('/api/members').expect(403);
    const key = new SoftAuthenticator(origin);
    await desk
      .post('/api/account/passkeys')
      .send({ name: 'Front desk tablet', response: key.register(await registrationOptions(desk)) })
      .expect(201);
    await desk.get('/api/members').expect(200);
  });
});
