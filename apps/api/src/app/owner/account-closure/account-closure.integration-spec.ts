import type TestAgent from 'supertest/lib/agent';
import {
  ALREADY_CLOSING_MESSAGE,
  BUSINESS_CLOSING_MESSAGE,
  CLOSURE_PASSWORD_MESSAGE,
  NOT_CLOSING_MESSAGE,
} from '@grove/contracts';
import { recipient, type ParsedMail, type SmtpCatcher } from '@grove/testing-smtp';
import { createMailTestApp } from '../../../../test/member-mail';
import { waitFor } from '../../../../test/stub-servers';
import { treeBody, type TestApp } from '../../../../test/test-app';
import { SIGNUP_CONFIRM_SUBJECT } from '../../platform/auth/signup-emails';
import { AccountClosureService } from './account-closure.service';

/**
 * Closing a business (issue 34 item 6, docs/product.md#data-rights) on PostgreSQL, through a real
 * SMTP server: the password confirms, the rest of the staff is signed out and kept out, an email
 * confirms, an owner cancels, and the daily job deletes a business 30 days after with all its rows.
 */
describe('closing a business (integration)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp({ THROTTLE_PASSWORD_RESET_LIMIT: '1000' }));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const mailsTo = (address: string): ParsedMail[] =>
    smtp.emails.filter(
      (mail) =>
        recipient(mail)?.toLowerCase() === address.toLowerCase() &&
        // Not the sign-up link every owner of these tests got first (docs/product.md#signup).
        mail.subject !== SIGNUP_CONFIRM_SUBJECT,
    );

  /** Invites a manager and signs them in; returns their browser and login. */
  async function manager(owner: TestAgent, email: string) {
    await owner.post('/api/team/invitations').send({ email, role: 'manager' }).expect(201);
    const mail = await waitFor(async () => mailsTo(email)[0]);
    const token = /#token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
    const agent = t.agent();
    const password = 'a long manager passphrase';
    await agent
      .post('/api/team/invitations/accept')
      .send({ token, firstName: 'Ana-Sofía', lastName: 'Pérez', password })
      .expect(200);
    return { agent, email, password };
  }

  it('closes after the password: staff signed out and kept out, an email, cancellable by an owner', async () => {
    const { agent: owner, body } = await t.signUp({ businessName: "O'Brien's Gym" });
    const staff = await manager(owner, `manager.${process.pid}@obriens.example.ie`);

    const wrong = await owner
      .post('/api/account/closure')
      .send({ password: 'not it at all' })
      .expect(400);
    expect(wrong.body).toMatchObject({ message: CLOSURE_PASSWORD_MESSAGE });
    await owner.post('/api/account/closure').send({}).expect(400);
    expect((await owner.get('/api/account/closure').expect(200)).body).toEqual({ closingAt: null });

    const closed = await owner
      .post('/api/account/closure')
      .send({ password: body.password })
      .expect(200);
    const days = (Date.parse(closed.body.closingAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const mail = await waitFor(async () =>
      mailsTo(body.email).find((m) => /will be closed/.test(m.subject ?? '')),
    );
    expect(mail.subject).toContain("O'Brien's Gym will be closed on Grove on");
    expect(mail.text).toContain('Cancel closing');

    await staff.agent.get('/api/auth/me').expect(401);
    const refused = await t
      .agent()
      .post('/api/auth/login')
      .send({ email: staff.email, password: staff.password })
      .expect(403);
    expect(refused.body.message).toBe(BUSINESS_CLOSING_MESSAGE);
    // The owner still works and may sign in again.
    await owner.get('/api/members').expect(200);
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: body.email, password: body.password })
      .expect(200);
    const twice = await owner
      .post('/api/account/closure')
      .send({ password: body.password })
      .expect(409);
    expect(twice.body.message).toBe(ALREADY_CLOSING_MESSAGE);

    await owner.delete('/api/account/closure').expect(204);
    expect((await owner.get('/api/account/closure').expect(200)).body).toEqual({ closingAt: null });
    await waitFor(async () => mailsTo(body.email).find((m) => /stays open/.test(m.subject ?? '')));
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: staff.email, password: staff.password })
      .expect(200);
    const notClosing = await owner.delete('/api/account/closure').expect(409);
    expect(notClosing.body.message).toBe(NOT_CLOSING_MESSAGE);
    // A manager may not close the business.
    const signedIn = t.agent();
    await signedIn
      .post('/api/auth/login')
      .send({ email: staff.email, password: staff.password })
      .expect(200);
    await signedIn.post('/api/account/closure').send({ password: staff.password }).expect(403);
  });

  it('deletes the business with everything it owns once 30 days have passed; others stay', async () => {
    const { agent: owner, user, body } = await t.signUp();
    const { agent: neighbour, user: other } = await t.signUp();
    await owner
      .post('/api/members')
      .send(treeBody("Siobhán O'Brien", 'siobhan@example.ie'))
      .expect(201);
    await neighbour.post('/api/members').send(treeBody('Zoë Nguyễn', 'zoe@example.fr')).expect(201);
    await owner.post('/api/account/closure').send({ password: body.password }).expect(200);
    const closures = t.app.get(AccountClosureService);
    expect(await closures.deleteClosed()).toBe(0);
    await t.dataSource.query(
      `UPDATE businesses SET closing_at = now() - interval '1 second' WHERE id = $1`,
      [user.business.id],
    );
    expect(await closures.deleteClosed()).toBe(1);
    const left = await t.dataSource.query(
      `SELECT (SELECT count(*) FROM businesses WHERE id = $1)::int AS businesses,
              (SELECT count(*) FROM members WHERE business_id = $1)::int AS members,
              (SELECT count(*) FROM users WHERE business_id = $1)::int AS users,
              (SELECT count(*) FROM members WHERE business_id = $2)::int AS others`,
      [user.business.id, other.business.id],
    );
    expect(left).toEqual([{ businesses: 0, members: 0, users: 0, others: 1 }]);
    // The deleted owner's session ends once its trust window (ACTIVE_SESSION_TRUST_MS) is over.
    await waitFor(async () =>
      (await owner.get('/api/members')).status === 401 ? true : undefined,
    );
  });
});
