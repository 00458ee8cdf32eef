import { MESSAGES, type AccountDetails, type SessionUser } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { MailService } from '../../platform/mail/mail.service';

describe('account settings (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Signs `email` in with `password` on a new browser; expects `status` (200 signed in, 401 refused). */
  const login = async (email: string, password: string, status: 200 | 401) => {
    const browser = t.agent();
    await browser.post('/api/auth/login').send({ email, password }).expect(status);
    return browser;
  };

  it('needs a session', async () => {
    await t.agent().get('/api/account').expect(401);
    await t.agent().patch('/api/account').send({ firstName: 'X' }).expect(401);
    await t
      .agent()
      .post('/api/account/password')
      .send({ currentPassword: 'a', newPassword: 'bbbbbbbb' })
      .expect(401);
  });

  it("shows the signed-in owner's signup details", async () => {
    const { agent, body } = await t.signUp({
      businessName: 'Harbour Yoga',
      phoneNumber: '0412 345 678',
      website: 'harbouryoga.com.au',
    });
    const reply = await agent.get('/api/account').expect(200);
    expect(reply.body as AccountDetails).toEqual({
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      businessName: 'Harbour Yoga',
      country: 'AU',
      timeZone: 'Australia/Sydney',
      phoneNumber: '0412 345 678',
      website: 'harbouryoga.com.au',
    });
  });

  it('updates the given fields only, and /api/auth/me shows the new name', async () => {
    const { agent, body } = await t.signUp({ businessName: 'Old Name Gym' });
    const reply = await agent
      .patch('/api/account')
      .send({
        firstName: '  Alex ',
        businessName: 'New Name Gym',
        website: 'https://newname.com.au',
      })
      .expect(200);
    expect(reply.body as AccountDetails).toEqual({
      firstName: 'Alex',
      lastName: body.lastName,
      email: body.email,
      businessName: 'New Name Gym',
      country: 'AU',
      timeZone: 'Australia/Sydney',
      phoneNumber: body.phoneNumber,
      website: 'https://newname.com.au',
    });
    const me = (await agent.get('/api/auth/me').expect(200)).body as SessionUser;
    expect(me.firstName).toBe('Alex');
    expect(me.username).toBe(`Alex ${body.lastName}`);
    expect(me.business.name).toBe('New Name Gym');
  });

  it.each([
    [{ firstName: 'R2D2' }, { firstName: MESSAGES.signupInvalidName }],
    [{ lastName: '' }, { lastName: MESSAGES.fillAllFields }],
    [{ businessName: '   ' }, { businessName: MESSAGES.businessNameRequired }],
    [{ phoneNumber: '123' }, { phoneNumber: MESSAGES.signupInvalidPhone }],
    [{ phoneNumber: '(415) 555-0134' }, { phoneNumber: MESSAGES.signupInvalidPhone }],
    [{ country: 'US' }, { phoneNumber: MESSAGES.signupInvalidPhone }],
    [{ country: 'USA', phoneNumber: '+1 415 555 0134' }, { country: MESSAGES.countryInvalid }],
    [
      { country: 'USA', phoneNumber: '(415) 555-0134' },
      { country: MESSAGES.countryInvalid, phoneNumber: MESSAGES.signupInvalidPhone },
    ],
    [{ country: null }, { country: MESSAGES.countryInvalid }],
    [{ timeZone: 'Australia/Sidney' }, { timeZone: MESSAGES.timeZoneInvalid }],
    [{ timeZone: '' }, { timeZone: MESSAGES.timeZoneInvalid }],
    [{ timeZone: 42 }, { timeZone: MESSAGES.timeZoneInvalid }],
    [{ website: 'not a site' }, { website: MESSAGES.signupInvalidUrl }],
    [{ firstName: 'Valid', website: 'nope' }, { website: MESSAGES.signupInvalidUrl }],
  ])('refuses %o with the signup message and changes nothing', async (patch, fieldErrors) => {
    const { agent } = await t.signUp();
    const before = (await agent.get('/api/account').expect(200)).body as AccountDetails;
    const reply = await agent.patch('/api/account').send(patch);
    expect(reply.status).toBe(400);
    expect(reply.body.fieldErrors).toEqual(fieldErrors);
    expect(reply.body.message).toBe(Object.values(fieldErrors)[0]);
    expect((await agent.get('/api/account').expect(200)).body).toEqual(before);
  });

  it('moves the business to another country with a phone number of that country (docs/product.md#country)', async () => {
    const { agent } = await t.signUp({ phoneNumber: '0412 345 678' });
    const moved = await agent
      .patch('/api/account')
      .send({ country: 'US', phoneNumber: '(415) 555-0134' })
      .expect(200);
    expect(moved.body).toMatchObject({ country: 'US', phoneNumber: '(415) 555-0134' });
    // The phone alone is now read for the United States.
    await agent.patch('/api/account').send({ phoneNumber: '415-555-0199' }).expect(200);
    const refused = await agent.patch('/api/account').send({ phoneNumber: '0412 345 678' });
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors).toEqual({ phoneNumber: MESSAGES.signupInvalidPhone });
    await agent.patch('/api/account').send({ phoneNumber: '+61 412 345 678' }).expect(200);
  });

  it("chooses the business's time zone, and a new country starts at its own main zone (issue 25)", async () => {
    const { agent } = await t.signUp({ phoneNumber: '0412 345 678' });
    const perth = await agent
      .patch('/api/account')
      .send({ timeZone: 'Australia/Perth' })
      .expect(200);
    expect(perth.body).toMatchObject({ country: 'AU', timeZone: 'Australia/Perth' });
    let me = (await agent.get('/api/auth/me').expect(200)).body as SessionUser;
    expect(me.business).toMatchObject({
      country: 'AU',
      locale: 'en-AU',
      currency: 'AUD',
      timeZone: 'Australia/Perth',
    });
    await agent
      .patch('/api/account')
      .send({ country: 'GB', phoneNumber: '020 7946 0958' })
      .expect(200);
    me = (await agent.get('/api/auth/me').expect(200)).body as SessionUser;
    expect(me.business).toMatchObject({
      country: 'GB',
      locale: 'en-GB',
      currency: 'GBP',
      timeZone: 'Europe/London',
    });
    const both = await agent
      .patch('/api/account')
      .send({ country: 'US', phoneNumber: '(415) 555-0134', timeZone: 'America/Los_Angeles' })
      .expect(200);
    expect(both.body).toMatchObject({ country: 'US', timeZone: 'America/Los_Angeles' });
  });

  it('refuses to change the email here', async () => {
    const { agent } = await t.signUp();
    await agent.patch('/api/account').send({ email: 'new@x.com' }).expect(400);
  });

  it("changes only the signed-in owner's account (another owner is untouched)", async () => {
    const a = await t.signUp({ businessName: 'Alpha' });
    const b = await t.signUp({ businessName: 'Beta' });
    await a.agent
      .patch('/api/account')
      .send({
        businessName: 'Alpha Renamed',
        lastName: 'Changed',
        country: 'US',
        timeZone: 'America/Chicago',
        phoneNumber: '(415) 555-0134',
      })
      .expect(200);
    const other = (await b.agent.get('/api/account').expect(200)).body as AccountDetails;
    expect(other.businessName).toBe('Beta');
    expect(other.country).toBe('AU');
    expect(other.timeZone).toBe('Australia/Sydney');
    expect(other.phoneNumber).toBe(b.body.phoneNumber);
    expect(other.lastName).toBe(b.body.lastName);
  });

  it('refuses a wrong or empty current password and a short new one, keeping the old password', async () => {
    const { agent, body } = await t.signUp();
    const wrong = await agent
      .post('/api/account/password')
      .send({ currentPassword: 'not my password', newPassword: 'brand new password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(MESSAGES.currentPasswordWrong);
    const short = await agent
      .post('/api/account/password')
      .send({ currentPassword: body.password, newPassword: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe(MESSAGES.passwordTooShort);
    const empty = await agent
      .post('/api/account/password')
      .send({ currentPassword: '', newPassword: 'brand new password' });
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors).toEqual({ currentPassword: MESSAGES.currentPasswordRequired });
    await t
      .agent()
      .post('/api/auth/login')
      .send({ email: body.email, password: body.password })
      .expect(200);
  });

  it('changes the password: other sessions end, this one stays, the new password logs in and the old one not', async () => {
    const { agent: here, body } = await t.signUp();
    const elsewhere = await login(body.email, body.password, 200);
    await elsewhere.get('/api/auth/me').expect(200);

    const reply = await here
      .post('/api/account/password')
      .send({ currentPassword: body.password, newPassword: 'a whole new passphrase' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ message: MESSAGES.passwordChanged });

    await here.get('/api/auth/me').expect(200);
    await here.post('/api/auth/refresh').expect(200);
    await elsewhere.get('/api/auth/me').expect(401);
    await elsewhere.post('/api/auth/refresh').expect(401);
    await login(body.email, body.password, 401);
    await login(body.email, 'a whole new passphrase', 200);
  });

  it('changes nothing when the change cannot be finished (the email cannot be queued): the old password, the other sessions stay', async () => {
    const { agent: here, body } = await t.signUp();
    const elsewhere = await login(body.email, body.password, 200);
    const queue = jest
      .spyOn(t.app.get(MailService), 'queue')
      .mockRejectedValueOnce(new Error('the jobs table did not answer'));
    try {
      const reply = await here
        .post('/api/account/password')
        .send({ currentPassword: body.password, newPassword: 'a whole new passphrase' });
      expect(reply.status).toBeGreaterThanOrEqual(500);
    } finally {
      queue.mockRestore();
    }
    await elsewhere.get('/api/auth/me').expect(200);
    await login(body.email, body.password, 200);
    await login(body.email, 'a whole new passphrase', 401);
  });

  describe("where you're signed in (issue 34)", () => {
    const IPHONE =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
    const WINDOWS =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
    const signIn = async (email: string, password: string, userAgent: string) => {
      const browser = t.agent();
      await browser
        .post('/api/auth/login')
        .set('User-Agent', userAgent)
        .send({ email, password })
        .expect(200);
      return browser;
    };
    type Listed = { id: string; device: string; current: boolean; lastActiveAt: string };

    it('lists each browser signed in, this one first; signing one out ends it at once; "everywhere else" keeps only this one', async () => {
      const { body } = await t.signUp({ firstName: 'Siobhán' });
      const laptop = await signIn(body.email, body.password, WINDOWS);
      const phone = await signIn(body.email, body.password, IPHONE);
      const listed = (await laptop.get('/api/account/sessions').expect(200)).body as Listed[];
      // The signup's own browser, the laptop and the phone.
      expect(listed).toHaveLength(3);
      expect(listed[0]).toMatchObject({ current: true, device: 'Chrome 120 on Windows' });
      expect(listed.filter((row) => row.current)).toHaveLength(1);
      const phoneRow = listed.find((row) => row.device === 'Safari 17 on iOS');
      expect(phoneRow).toBeDefined();

      await laptop.delete(`/api/account/sessions/${phoneRow?.id}`).expect(204);
      await phone.get('/api/account').expect(401);
      await laptop.delete(`/api/account/sessions/${phoneRow?.id}`).expect(404);
      expect(
        ((await laptop.get('/api/account/sessions').expect(200)).body as Listed[]).length,
      ).toBe(2);

      const again = await signIn(body.email, body.password, IPHONE);
      const ended = (await laptop.post('/api/account/sessions/sign-out-others').expect(200))
        .body as { ended: number };
      expect(ended.ended).toBe(2);
      await again.get('/api/account').expect(401);
      const left = (await laptop.get('/api/account/sessions').expect(200)).body as Listed[];
      expect(left.map((row) => row.current)).toEqual([true]);
    });

    it("needs a session; another owner's sign-ins are neither listed nor ended (tenant isolation); a bad id is 400", async () => {
      await t.agent().get('/api/account/sessions').expect(401);
      await t.agent().post('/api/account/sessions/sign-out-others').expect(401);
      await t
        .agent()
        .delete('/api/account/sessions/3f1c2a5e-8d7b-4c1e-9a2f-0b6d5e4c3a21')
        .expect(401);
      const victim = await t.signUp();
      const attacker = await t.signUp({ businessName: 'Other Gym' });
      const victimRows = (await victim.agent.get('/api/account/sessions').expect(200))
        .body as Listed[];
      const attackerRows = (await attacker.agent.get('/api/account/sessions').expect(200))
        .body as Listed[];
      expect(attackerRows.map((row) => row.id)).not.toContain(victimRows[0]?.id);
      await attacker.agent.delete(`/api/account/sessions/${victimRows[0]?.id}`).expect(404);
      await attacker.agent.post('/api/account/sessions/sign-out-others').expect(200);
      await victim.agent.get('/api/account').expect(200);
      await attacker.agent.delete('/api/account/sessions/not-a-uuid').expect(400);
    });
  });
});
