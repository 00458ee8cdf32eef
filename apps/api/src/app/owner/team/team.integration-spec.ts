import { createHash } from 'node:crypto';
import type TestAgent from 'supertest/lib/agent';
import {
  INVITATION_INVALID_MESSAGE,
  LAST_OWNER_MESSAGE,
  MESSAGES,
  PASSKEY_MESSAGES,
  STAFF_EMAIL_TAKEN_MESSAGE,
  roleRefusedMessage,
  type AuditEntry,
  type SessionUser,
} from '@grove/contracts';
import { recipient, type ParsedMail, type SmtpCatcher } from '@grove/testing-smtp';
import { createMailTestApp } from '../../../../test/member-mail';
import { SoftAuthenticator } from '../../../../test/soft-authenticator';
import { AppConfig } from '../../platform/config/app-config';
import { waitFor } from '../../../../test/stub-servers';
import type { TestApp } from '../../../../test/test-app';
import { SIGNUP_CONFIRM_SUBJECT } from '../../platform/auth/signup-emails';

interface TeamReply {
  members: {
    id: string;
    email: string;
    role: string;
    lastSignInAt: string | null;
    signInPausedSeconds: number;
    you?: true;
  }[];
  invitations: { id: string; email: string; role: string; expiresAt: string; createdAt: string }[];
}

/**
 * Staff accounts (issue 34 item 1, docs/product.md#staff-accounts) on PostgreSQL, through a real
 * SMTP server: invite by email (a single-use 7-day link stored hashed), accept with a name and a
 * password and be signed in with the role, list the team, change a role, revoke an invitation,
 * remove a member of staff (their next request 401), at least one owner kept, each business's
 * team its own.
 */
describe('the team (integration)', () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp({ THROTTLE_PASSWORD_RESET_LIMIT: '1000' }));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const invitationsTo = (address: string): ParsedMail[] =>
    smtp.emails.filter(
      (mail) =>
        recipient(mail)?.toLowerCase() === address.toLowerCase() &&
        // Not the sign-up link every owner of these tests got first (docs/product.md#signup).
        mail.subject !== SIGNUP_CONFIRM_SUBJECT,
    );
  const tokenOf = (mail: ParsedMail): string => {
    const match = /\/accept-invitation#token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    if (!match) throw new Error(`no invitation link in: ${mail.text}`);
    return match[1];
  };
  /** Invites `email` as `role` and returns the link's token from the email. */
  async function invite(owner: TestAgent, email: string, role: string): Promise<string> {
    const before = invitationsTo(email).length;
    await owner.post('/api/team/invitations').send({ email, role }).expect(201);
    return tokenOf(await waitFor(async () => invitationsTo(email)[before]));
  }
  /** The owner's 'Staff joined' entries of the audit log, newest first. */
  async function joinedEntries(owner: TestAgent): Promise<AuditEntry[]> {
    return (await owner.get('/api/audit-log').query({ kind: 'team.joined' }).expect(200)).body
      .items as AuditEntry[];
  }
  /** Accepts an invitation on a fresh browser; returns it signed in. */
  async function accept(token: string, firstName = 'Renée'): Promise<TestAgent> {
    const agent = t.agent();
    await agent
      .post('/api/team/invitations/accept')
      .send({ token, firstName, lastName: "O'Brien", password: 'a long staff passphrase' })
      .expect(200);
    return agent;
  }

  it('invites by email: the link works once within 7 days, stored as its SHA-256; the invitee is signed in with the role', async () => {
    const { agent: owner, user } = await t.signUp({ businessName: 'Café Olé Gym' });
    const email = `desk.${process.pid}@cafeole.example.com`;
    const reply = await owner
      .post('/api/team/invitations')
      .send({ email, role: 'front_desk' })
      .expect(201);
    expect(reply.body).toMatchObject({ email, role: 'front_desk' });
    const mail = await waitFor(async () => invitationsTo(email)[0]);
    expect(mail.subject).toBe('Sam invited you to Café Olé Gym on Grove');
    expect(mail.text).toContain('as Front desk');
    const token = tokenOf(mail);
    const [row] = (await t.dataSource.query(
      `SELECT token_hash, expires_at - created_at AS ttl FROM staff_invitations WHERE id = $1`,
      [reply.body.id],
    )) as { token_hash: string; ttl: { days?: number } }[];
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(row.ttl.days).toBe(7);

    const info = await t.agent().post('/api/team/invitations/lookup').send({ token }).expect(200);
    expect(info.body).toEqual({ businessName: 'Café Olé Gym', email, role: 'front_desk' });

    // Bad input changes nothing: the link still works afterwards.
    const weak = await t
      .agent()
      .post('/api/team/invitations/accept')
      .send({ token, firstName: 'Renée', lastName: "O'Brien", password: 'short' })
      .expect(400);
    expect(weak.body.message).toBe(MESSAGES.passwordTooShort);
    expect(await joinedEntries(owner)).toEqual([]);

    const staff = t.agent();
    const signedIn = await staff
      .post('/api/team/invitations/accept')
      .send({ token, firstName: 'Renée', lastName: "O'Brien", password: 'a long staff passphrase' })
      .expect(200);
    expect(signedIn.body as SessionUser).toMatchObject({
      email,
      firstName: 'Renée',
      role: 'front_desk',
      business: { id: user.business.id, name: 'Café Olé Gym' },
    });
    expect((await staff.get('/api/auth/me').expect(200)).body.role).toBe('front_desk');
    // The joining is in the audit log: who joined, with which role, invited by whom.
    expect(await joinedEntries(owner)).toEqual([
      expect.objectContaining({
        actor: 'staff',
        authorUserId: signedIn.body.id,
        authorName: "Renée O'Brien",
        before: null,
        after: {
          staff: "Renée O'Brien",
          email,
          role: 'Front desk',
          invitedBy: `${user.firstName} ${user.lastName}`,
          joinedWith: 'password',
        },
      }),
    ]);
    // The front desk may not see the team.
    const refused = await staff.get('/api/team').expect(403);
    expect(refused.body.message).toBe(roleRefusedMessage('front_desk'));

    const again = await t
      .agent()
      .post('/api/team/invitations/accept')
      .send({ token, firstName: 'Eve', lastName: 'Other', password: 'a long staff passphrase' })
      .expect(400);
    expect(again.body.message).toBe(INVITATION_INVALID_MESSAGE);
    await t.agent().post('/api/team/invitations/lookup').send({ token }).expect(400);
    expect(await joinedEntries(owner)).toHaveLength(1);

    // Signs in with the password chosen.
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email, password: 'a long staff passphrase' })
      .expect(200);
  });

  it('lists the team (role, last sign-in) and pending invitations; a revoked or expired link no longer works', async () => {
    const { agent: owner, body } = await t.signUp();
    const managerToken = await invite(owner, `mgr.${process.pid}@x.example.com`, 'manager');
    await accept(managerToken, 'Mánus');
    const pendingToken = await invite(owner, `pending.${process.pid}@x.example.com`, 'viewer');
    const oldToken = await invite(owner, `old.${process.pid}@x.example.com`, 'viewer');
    await t.dataSource.query(
      `UPDATE staff_invitations SET expires_at = now() - interval '1 second' WHERE lower(email) = lower($1)`,
      [`old.${process.pid}@x.example.com`],
    );
    const team = (await owner.get('/api/team').expect(200)).body as TeamReply;
    expect(team.members.map((m) => [m.email, m.role, m.you ?? false])).toEqual([
      [body.email, 'owner', true],
      [`mgr.${process.pid}@x.example.com`, 'manager', false],
    ]);
    expect(team.members.every((m) => m.lastSignInAt !== null)).toBe(true);
    expect(team.invitations.map((i) => [i.email, i.role])).toEqual([
      [`pending.${process.pid}@x.example.com`, 'viewer'],
    ]);
    await t.agent().post('/api/team/invitations/lookup').send({ token: oldToken }).expect(400);

    await owner.delete(`/api/team/invitations/${team.invitations[0].id}`).expect(204);
    await owner.delete(`/api/team/invitations/${team.invitations[0].id}`).expect(404);
    await t
      .agent()
      .post('/api/team/invitations/accept')
      .send({
        token: pendingToken,
        firstName: 'Zoë',
        lastName: 'Ng',
        password: 'a long staff passphrase',
      })
      .expect(400);
    expect(((await owner.get('/api/team').expect(200)).body as TeamReply).invitations).toEqual([]);
  });

  it('refuses an address that already has a Grove account (409), and bad input (400)', async () => {
    const { agent: owner } = await t.signUp();
    const other = await t.signUp();
    const taken = await owner
      .post('/api/team/invitations')
      .send({ email: other.body.email.toUpperCase(), role: 'viewer' })
      .expect(409);
    expect(taken.body.message).toBe(STAFF_EMAIL_TAKEN_MESSAGE);
    await owner.post('/api/team/invitations').send({ email: 'nope', role: 'viewer' }).expect(400);
    await owner
      .post('/api/team/invitations')
      .send({ email: 'ok@x.example.com', role: 'admin' })
      .expect(400);
    expect(((await owner.get('/api/team').expect(200)).body as TeamReply).invitations).toEqual([]);
  });

  it("changes a role (applies on the staff member's next request) and removes a member of staff (next request 401)", async () => {
    const { agent: owner } = await t.signUp();
    const email = `viewer.${process.pid}@y.example.com`;
    const staff = await accept(await invite(owner, email, 'viewer'), "D'Arcy");
    await staff
      .put('/api/settings/member-defaults')
      .send({ discountCents: 1, membershipPriceCents: 1 })
      .expect(403);
    const id = ((await owner.get('/api/team').expect(200)).body as TeamReply).members.find(
      (m) => m.email === email,
    )!.id;
    await owner.patch(`/api/team/members/${id}`).send({ role: 'manager' }).expect(204);
    await staff
      .put('/api/settings/member-defaults')
      .send({ discountCents: 100, membershipPriceCents: 5000 })
      .expect(200);
    await owner.patch(`/api/team/members/${id}`).send({ role: 'boss' }).expect(400);

    await owner.delete(`/api/team/members/${id}`).expect(204);
    await staff.get('/api/members').expect(401);
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email, password: 'a long staff passphrase' })
      .expect(401);
  });

  it('keeps at least one owner (409), and lets a second owner be removed', async () => {
    const { agent: owner } = await t.signUp();
    const team = (await owner.get('/api/team').expect(200)).body as TeamReply;
    const self = team.members[0].id;
    const demote = await owner
      .patch(`/api/team/members/${self}`)
      .send({ role: 'manager' })
      .expect(409);
    expect(demote.body.message).toBe(LAST_OWNER_MESSAGE);
    expect((await owner.delete(`/api/team/members/${self}`).expect(409)).body.message).toBe(
      LAST_OWNER_MESSAGE,
    );
    const email = `owner2.${process.pid}@z.example.com`;
    await accept(await invite(owner, email, 'owner'), 'Siobhán');
    await owner.patch(`/api/team/members/${self}`).send({ role: 'manager' }).expect(204);
    // Now a manager: the team is closed to them.
    await owner.get('/api/team').expect(403);
  });

  it("keeps each business's team its own (tenant isolation): another business's member or invitation answers 404 and is unchanged", async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    const staffEmail = `b.staff.${process.pid}@b.example.com`;
    await accept(await invite(b.agent, staffEmail, 'viewer'));
    await invite(b.agent, `b.pending.${process.pid}@b.example.com`, 'manager');
    const teamB = (await b.agent.get('/api/team').expect(200)).body as TeamReply;
    const staffId = teamB.members.find((m) => m.email === staffEmail)!.id;
    const ownerB = teamB.members.find((m) => m.role === 'owner')!.id;

    const teamA = (await a.agent.get('/api/team').expect(200)).body as TeamReply;
    expect(teamA.members.map((m) => m.email)).toEqual([a.body.email]);
    expect(teamA.invitations).toEqual([]);
    await a.agent.patch(`/api/team/members/${staffId}`).send({ role: 'owner' }).expect(404);
    await a.agent.patch(`/api/team/members/${ownerB}`).send({ role: 'viewer' }).expect(404);
    await a.agent.delete(`/api/team/members/${staffId}`).expect(404);
    await a.agent.delete(`/api/team/invitations/${teamB.invitations[0].id}`).expect(404);
    expect((await b.agent.get('/api/team').expect(200)).body).toEqual(teamB);
  });
  /** Registration options for accepting `token` with a passkey (the invitee's form as Zoë's). */
  const passkeyOptions = (token: string, fields: Record<string, unknown> = {}) =>
    t
      .agent()
      .post('/api/team/invitations/passkey/options')
      .send({
        token,
        firstName: 'Zoë',
        lastName: "D'Arcy-Nguyễn",
        passkeyName: 'Work laptop',
        ...fields,
      });
  type CreationOptions = {
    challenge: string;
    rp: { id?: string };
    user: { id: string; name: string; displayName: string };
    authenticatorSelection: { residentKey: string; userVerification: string };
  };
  const optionsOf = async (token: string): Promise<CreationOptions> =>
    (await passkeyOptions(token).expect(200)).body.options as CreationOptions;
  /** Sends the authenticator's answer with `token` from `browser`. */
  const acceptWithPasskey = (
    browser: TestAgent,
    token: string,
    response: Record<string, unknown>,
    fields: Record<string, unknown> = {},
  ) =>
    browser.post('/api/team/invitations/passkey').send({
      token,
      firstName: 'Zoë',
      lastName: "D'Arcy-Nguyễn",
      passkeyName: 'Work laptop',
      response,
      ...fields,
    });
  const usersWith = async (email: string) =>
    (await t.dataSource.query(`SELECT id, business_id FROM users WHERE email = $1`, [email])) as {
      id: string;
      business_id: string;
    }[];
  const origin = () => t.app.get(AppConfig).publicOrigin;

  it('accepts an invitation with a passkey instead of a password: the options are for the new account, the passkey added and the link used in one step, signed in with the role; a second use is refused', async () => {
    const { agent: owner, user: ownerUser } = await t.signUp({
      businessName: 'Ana-Sofía’s Boxing',
    });
    const email = `zoe.passkey.${process.pid}@boxing.example.com`;
    const token = await invite(owner, email, 'front_desk');

    const options = await optionsOf(token);
    expect(options.rp.id).toBe(new URL(origin()).hostname);
    expect(options.user).toMatchObject({ name: email, displayName: "Zoë D'Arcy-Nguyễn" });
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    // Asking for options uses nothing: the link still opens.
    await t.agent().post('/api/team/invitations/lookup').send({ token }).expect(200);
    expect(await usersWith(email)).toHaveLength(0);

    const key = new SoftAuthenticator(origin());
    const answer = key.register(options);
    const browser = t.agent();
    const joined = await acceptWithPasskey(browser, token, answer).expect(200);
    const user = joined.body.user as SessionUser;
    expect(user).toMatchObject({ email, role: 'front_desk', firstName: 'Zoë' });
    expect(user.business.id).toBe(ownerUser.business.id);
    // The passkey's user handle is the new account's id.
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(user.id);
    const codes = joined.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await browser.get('/api/auth/me').expect(200)).body.id).toBe(user.id);
    expect((await browser.get('/api/account/passkeys').expect(200)).body).toEqual([
      expect.objectContaining({ name: 'Work laptop', lastUsedAt: null }),
    ]);

    // The passkey signs in on its own.
    const signIn = (await t.agent().post('/api/auth/passkey/options').send({}).expect(200)).body
      .options as { challenge: string; rpId?: string };
    const elsewhere = t.agent();
    await elsewhere
      .post('/api/auth/passkey')
      .send({ response: key.assert(signIn) })
      .expect(200);
    expect((await elsewhere.get('/api/auth/me').expect(200)).body.id).toBe(user.id);
    // No password was chosen: a guess does not sign in.
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email, password: 'a long staff passphrase' })
      .expect(401);

    // The single-use link: a replay of the same step, new options, or a password are refused.
    const replay = await acceptWithPasskey(t.agent(), token, answer).expect(400);
    expect(replay.body.message).toBe(INVITATION_INVALID_MESSAGE);
    expect((await passkeyOptions(token).expect(400)).body.message).toBe(INVITATION_INVALID_MESSAGE);
    await t
      .agent()
      .post('/api/team/invitations/accept')
      .send({ token, firstName: 'Zoë', lastName: 'Other', password: 'a long staff passphrase' })
      .expect(400);
    expect(await usersWith(email)).toHaveLength(1);
    const team = (await owner.get('/api/team').expect(200)).body as TeamReply;
    expect(team.members.filter((m) => m.email === email)).toHaveLength(1);
    expect(team.invitations.filter((i) => i.email === email)).toHaveLength(0);
    // Recorded once, in the acceptance's transaction, as joined with a passkey.
    expect(await joinedEntries(owner)).toEqual([
      expect.objectContaining({
        authorUserId: user.id,
        authorName: "Zoë D'Arcy-Nguyễn",
        after: expect.objectContaining({
          role: 'Front desk',
          invitedBy: `${ownerUser.firstName} ${ownerUser.lastName}`,
          joinedWith: 'passkey',
        }),
      }),
    ]);
  });

  it('refuses an expired or revoked invitation, a used or expired challenge, and bad input with a clear 400; the link stays unused', async () => {
    const { agent: owner } = await t.signUp({ businessName: 'Siobhán’s Yoga' });
    const email = `siobhan.desk.${process.pid}@yoga.example.ie`;
    const token = await invite(owner, email, 'viewer');
    const stillPending = async () => {
      await t.agent().post('/api/team/invitations/lookup').send({ token }).expect(200);
      expect(await usersWith(email)).toHaveLength(0);
    };

    // Bad input: the field's message, before any prompt; nothing used.
    const fieldErrorsOf = async (fields: Record<string, unknown>) =>
      (await passkeyOptions(token, fields).expect(400)).body.fieldErrors as Record<string, string>;
    expect(await fieldErrorsOf({ passkeyName: '  ' })).toEqual({
      passkeyName: PASSKEY_MESSAGES.nameMissing,
    });
    expect(await fieldErrorsOf({ passkeyName: 'x'.repeat(61) })).toEqual({
      passkeyName: PASSKEY_MESSAGES.nameTooLong,
    });
    expect(await fieldErrorsOf({ firstName: '' })).toEqual({
      firstName: MESSAGES.signupInvalidName,
    });
    await passkeyOptions(token, { token: 42 }).expect(400);
    const key = new SoftAuthenticator(origin());
    const noAnswer = await acceptWithPasskey(t.agent(), token, {}, { response: 'yes' }).expect(400);
    expect(noAnswer.body.message).toBe(PASSKEY_MESSAGES.responseMissing);
    await stillPending();

    // A challenge used once (here by an answer from another origin) does not work again.
    const options = await optionsOf(token);
    const forged = await acceptWithPasskey(
      t.agent(),
      token,
      key.register(options, { origin: 'https://evil.example' }),
    ).expect(400);
    expect(forged.body.message).toBe(PASSKEY_MESSAGES.registrationFailed);
    const reused = await acceptWithPasskey(t.agent(), token, key.register(options)).expect(400);
    expect(reused.body.message).toBe(PASSKEY_MESSAGES.registrationFailed);
    await stillPending();

    // A challenge past its 5 minutes.
    const late = await optionsOf(token);
    await t.dataSource.query(
      `UPDATE webauthn_challenges SET expires_at = now() - interval '1 second' WHERE challenge = $1`,
      [late.challenge],
    );
    const expiredChallenge = await acceptWithPasskey(t.agent(), token, key.register(late)).expect(
      400,
    );
    expect(expiredChallenge.body.message).toBe(PASSKEY_MESSAGES.registrationFailed);
    await stillPending();

    // The invitation past its 7 days, then revoked: the link's own message, nothing created.
    const fresh = await optionsOf(token);
    await t.dataSource.query(
      `UPDATE staff_invitations SET expires_at = now() - interval '1 second' WHERE email = $1`,
      [email],
    );
    const expired = await acceptWithPasskey(t.agent(), token, key.register(fresh)).expect(400);
    expect(expired.body.message).toBe(INVITATION_INVALID_MESSAGE);
    expect((await passkeyOptions(token).expect(400)).body.message).toBe(INVITATION_INVALID_MESSAGE);
    const again = await invite(owner, email, 'viewer');
    const revokedOptions = await optionsOf(again);
    const pending = ((await owner.get('/api/team').expect(200)).body as TeamReply).invitations;
    await owner
      .delete(`/api/team/invitations/${pending.find((i) => i.email === email)!.id}`)
      .expect(204);
    const revoked = await acceptWithPasskey(t.agent(), again, key.register(revokedOptions)).expect(
      400,
    );
    expect(revoked.body.message).toBe(INVITATION_INVALID_MESSAGE);
    expect(await usersWith(email)).toHaveLength(0);
    expect(
      await t.dataSource.query(`SELECT 1 FROM user_passkeys WHERE credential_id = $1`, [key.id]),
    ).toHaveLength(0);
  });

  it("keeps each business's invitations apart (tenant isolation): a passkey answering one invitation's challenge never joins another business", async () => {
    const first = await t.signUp({ businessName: 'Café Olé Gym' });
    const second = await t.signUp({ businessName: 'Ana-Sofía’s Rowing Club' });
    const mine = `renee.${process.pid}@cafeole.example.com`;
    const theirs = `marco.${process.pid}@rowing.example.it`;
    const myToken = await invite(first.agent, mine, 'manager');
    const theirToken = await invite(second.agent, theirs, 'owner');

    const key = new SoftAuthenticator(origin());
    const answer = key.register(await optionsOf(myToken));
    // My invitation's answer sent with the other business's link: refused, theirs unused.
    const crossed = await acceptWithPasskey(t.agent(), theirToken, answer).expect(400);
    expect(crossed.body.message).toBe(PASSKEY_MESSAGES.registrationFailed);
    await t.agent().post('/api/team/invitations/lookup').send({ token: theirToken }).expect(200);
    expect(await usersWith(theirs)).toHaveLength(0);
    expect(await usersWith(mine)).toHaveLength(0);

    // Mine, properly: in my business only, with my invitation's role.
    const browser = t.agent();
    const joined = await acceptWithPasskey(
      browser,
      myToken,
      key.register(await optionsOf(myToken)),
    ).expect(200);
    expect((joined.body.user as SessionUser).role).toBe('manager');
    const [row] = await usersWith(mine);
    expect(row.business_id).toBe(first.user.business.id);
    const [passkey] = (await t.dataSource.query(
      `SELECT business_id FROM user_passkeys WHERE user_id = $1`,
      [row.id],
    )) as { business_id: string }[];
    expect(passkey.business_id).toBe(first.user.business.id);
    const theirTeam = (await second.agent.get('/api/team').expect(200)).body as TeamReply;
    expect(theirTeam.members.map((m) => m.email)).not.toContain(mine);
    expect(theirTeam.invitations.map((i) => i.email)).toEqual([theirs]);
    // The joining is in my business's audit log only.
    expect((await joinedEntries(first.agent)).map((e) => e.after?.email)).toEqual([mine]);
    expect(await joinedEntries(second.agent)).toEqual([]);
  });

  /** Joins `email`'s invitation from `owner` with a new passkey; returns the browser and the key. */
  async function joinWithPasskey(owner: TestAgent, email: string, role = 'front_desk') {
    const token = await invite(owner, email, role);
    const key = new SoftAuthenticator(origin());
    const browser = t.agent();
    await acceptWithPasskey(browser, token, key.register(await optionsOf(token))).expect(200);
    return { browser, key };
  }
  /** 'Set a password' step 1 from `browser`: the passkey options. */
  const confirmOptions = async (browser: TestAgent) =>
    (await browser.post('/api/account/password/set/options').expect(200)).body.options as {
      challenge: string;
      rpId?: string;
      allowCredentials: { id: string }[];
      userVerification: string;
    };
  const passwordSet = async (browser: TestAgent): Promise<boolean> =>
    (await browser.get('/api/account/second-factor').expect(200)).body.passwordSet as boolean;
  const NEW_PASSWORD = 'Siobhán’s front desk passphrase';

  it("lets a member of staff who joined with a passkey set a password, their passkey confirming it's them; their other sessions end and they are told", async () => {
    const { agent: owner } = await t.signUp({ businessName: 'Zoë’s Climbing Wall' });
    const email = `siobhan.set.${process.pid}@climbing.example.ie`;
    const { browser, key } = await joinWithPasskey(owner, email);
    expect(await passwordSet(browser)).toBe(false);
    expect(await passwordSet(owner)).toBe(true);
    // Another browser signed in with the passkey, and a reset link asked for.
    const elsewhere = t.agent();
    const signIn = (await t.agent().post('/api/auth/passkey/options').send({}).expect(200)).body
      .options as { challenge: string; rpId?: string };
    await elsewhere
      .post('/api/auth/passkey')
      .send({ response: key.assert(signIn) })
      .expect(200);

    const options = await confirmOptions(browser);
    expect(options.userVerification).toBe('required');
    expect(options.allowCredentials.map((c) => c.id)).toEqual([key.id]);
    const set = await browser
      .post('/api/account/password/set')
      .send({ newPassword: NEW_PASSWORD, response: key.assert(options) })
      .expect(200);
    expect(set.body.message).toBe(MESSAGES.passwordSet);
    expect(await passwordSet(browser)).toBe(true);
    // This browser stays signed in; the other one is signed out at once.
    await browser.get('/api/auth/me').expect(200);
    await elsewhere.get('/api/auth/me').expect(401);
    // The person is told, as after a change.
    await waitFor(async () =>
      invitationsTo(email).find((mail) => mail.subject === 'Your Grove password was changed'),
    );
    // The password now opens the sign-in's first step (the passkey is the second factor).
    const login = await t.agent().post('/api/auth/login').send({ email, password: NEW_PASSWORD });
    expect(login.status).toBe(202);

    // Once set, it is changed with the current one: another 'Set a password' is refused (409).
    const again = await browser
      .post('/api/account/password/set')
      .send({
        newPassword: 'another long passphrase here',
        response: key.assert(await confirmOptions(browser)),
      })
      .expect(409);
    expect(again.body.message).toBe(MESSAGES.passwordAlreadySet);
    const after = await t.agent().post('/api/auth/login').send({ email, password: NEW_PASSWORD });
    expect(after.status).toBe(202);
  });

  it("refuses 'Set a password' with bad input (400, nothing changed, the challenge unused), a used challenge, or without a passkey", async () => {
    const { agent: owner } = await t.signUp({ businessName: 'Ana-Sofía’s Pilates' });
    const email = `ana.set.${process.pid}@pilates.example.es`;
    const { browser, key } = await joinWithPasskey(owner, email);
    const options = await confirmOptions(browser);
    const answer = key.assert(options);

    const short = await browser
      .post('/api/account/password/set')
      .send({ newPassword: 'short', response: answer })
      .expect(400);
    expect(short.body.message).toBe(MESSAGES.passwordTooShort);
    const common = await browser
      .post('/api/account/password/set')
      .send({ newPassword: 'password12345', response: answer })
      .expect(400);
    expect(common.body.fieldErrors.newPassword).toMatch(/too common/);
    const missing = await browser
      .post('/api/account/password/set')
      .send({ newPassword: NEW_PASSWORD })
      .expect(400);
    expect(missing.body.message).toBe(PASSKEY_MESSAGES.responseMissing);
    await browser.post('/api/account/password/set').send('not json').expect(400);
    expect(await passwordSet(browser)).toBe(false);

    // A signature over another challenge (never handed out) is refused; nothing changes.
    const forged = await browser
      .post('/api/account/password/set')
      .send({
        newPassword: NEW_PASSWORD,
        response: key.assert({ ...options, challenge: 'bm90LWhhbmRlZC1vdXQ' }),
      })
      .expect(400);
    expect(forged.body.message).toBe(PASSKEY_MESSAGES.confirmFailed);
    expect(await passwordSet(browser)).toBe(false);

    // The bad inputs left the challenge unused: the same answer works once, then never again.
    await browser
      .post('/api/account/password/set')
      .send({ newPassword: NEW_PASSWORD, response: answer })
      .expect(200);
    const replay = await browser
      .post('/api/account/password/set')
      .send({ newPassword: NEW_PASSWORD, response: answer })
      .expect(400);
    expect(replay.body.message).toBe(PASSKEY_MESSAGES.confirmFailed);

    // An account without a passkey gets no options (it changes its password instead).
    const none = await owner.post('/api/account/password/set/options').expect(400);
    expect(none.body.message).toBe(PASSKEY_MESSAGES.confirmFailed);
    await t.agent().post('/api/account/password/set/options').expect(401);
    await t
      .agent()
      .post('/api/account/password/set')
      .send({ newPassword: NEW_PASSWORD })
      .expect(401);
  });

  it("keeps 'Set a password' to the person's own account (tenant isolation): another account's passkey or challenge is refused and changes nothing", async () => {
    const first = await t.signUp({ businessName: 'Café Olé Gym' });
    const second = await t.signUp({ businessName: 'Ana-Sofía’s Rowing Club' });
    const mine = await joinWithPasskey(first.agent, `renee.set.${process.pid}@cafeole.example.com`);
    const theirs = await joinWithPasskey(
      second.agent,
      `marco.set.${process.pid}@rowing.example.it`,
    );

    // Their passkey answering their own challenge, sent from my session.
    const theirAnswer = theirs.key.assert(await confirmOptions(theirs.browser));
    const crossed = await mine.browser
      .post('/api/account/password/set')
      .send({ newPassword: NEW_PASSWORD, response: theirAnswer })
      .expect(400);
    expect(crossed.body.message).toBe(PASSKEY_MESSAGES.confirmFailed);
    // My passkey answering their challenge, from my session.
    const theirChallenge = await confirmOptions(theirs.browser);
    await mine.browser
      .post('/api/account/password/set')
      .send({ newPassword: NEW_PASSWORD, response: mine.key.assert(theirChallenge) })
      .expect(400);
    expect(await passwordSet(mine.browser)).toBe(false);
    expect(await passwordSet(theirs.browser)).toBe(false);
    const [theirRow] = (await t.dataSource.query(
      `SELECT password_chosen FROM users WHERE email = $1`,
      [`marco.set.${process.pid}@rowing.example.it`],
    )) as { password_chosen: boolean }[];
    expect(theirRow.password_chosen).toBe(false);
  });
});

/**
 * A member of staff whose sign-in the per-account login throttle paused (issue 34 item 3, ASVS
 * 2.2.1): the owner sees it on the Team card and lifts it; another business's owner cannot.
 */
describe("the owner lifts a member of staff's paused sign-in (integration)", () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  beforeAll(async () => {
    // Each guess from an address of its own: only the per-account limit trips.
    ({ t, smtp } = await createMailTestApp({
      TRUST_PROXY: '1',
      THROTTLE_ACCOUNT_LOGIN_LIMIT: '3',
      THROTTLE_PASSWORD_RESET_LIMIT: '1000',
    }));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const login = (email: string, password: string, address: string) =>
    t.agent().post('/api/auth/login').set('X-Forwarded-For', address).send({ email, password });

  it('shows the paused account on the Team card, and lifting it lets the right password in at once', async () => {
    const { agent: owner } = await t.signUp({ businessName: 'Zoë’s Strength Lab' });
    const other = await t.signUp();
    const email = `ana-sofia.${process.pid}@zoes.example.com`;
    await owner.post('/api/team/invitations').send({ email, role: 'front_desk' }).expect(201);
    const mail = await waitFor(async () =>
      smtp.emails.find((m) => recipient(m)?.toLowerCase() === email),
    );
    const token = /\/accept-invitation#token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1] ?? '';
    const password = 'a long staff passphrase';
    await t
      .agent()
      .post('/api/team/invitations/accept')
      .send({ token, firstName: 'Ana-Sofía', lastName: 'Núñez', password })
      .expect(200);
    const staffOf = async () =>
      ((await owner.get('/api/team').expect(200)).body as TeamReply).members.find(
        (m) => m.email === email,
      )!;
    expect((await staffOf()).signInPausedSeconds).toBe(0);

    for (let guess = 1; guess <= 3; guess += 1)
      await login(email, `wrong ${guess}`, `203.0.113.${guess}`).expect(401);
    expect((await login(email, password, '198.51.100.1')).status).toBe(429);
    const paused = await staffOf();
    expect(paused.signInPausedSeconds).toBeGreaterThan(0);
    expect(paused.signInPausedSeconds).toBeLessThanOrEqual(15 * 60);

    // Another business's owner: 404, and the pause stays.
    await other.agent.delete(`/api/team/members/${paused.id}/sign-in-pause`).expect(404);
    expect((await login(email, password, '198.51.100.2')).status).toBe(429);
    // Bad input: 400, never a 500.
    await owner.delete('/api/team/members/not-a-uuid/sign-in-pause').expect(400);

    await owner.delete(`/api/team/members/${paused.id}/sign-in-pause`).expect(204);
    expect((await staffOf()).signInPausedSeconds).toBe(0);
    expect((await login(email, password, '198.51.100.3')).status).toBe(200);
  });
});
