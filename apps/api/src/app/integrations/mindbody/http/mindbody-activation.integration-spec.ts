import type TestAgent from 'supertest/lib/agent';
import { MESSAGES, type MindbodySiteActivation } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import { waitFor } from '../../../../../test/stub-servers';
import {
  mindbodyStatus,
  sandboxEnv,
  sandboxLogin,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';

jest.setTimeout(60_000);

/** The sandbox's site that has not activated Grove's developer account (its default). */
const NEW_SITE = '-98';

/**
 * Connecting a site as Mindbody asks (issue 22; Mindbody's 'Getting started'): before Grove's
 * developer account can read a site, its owner activates it with the code and link of
 * `GET /site/activationcode`. Stage 1 asks the site ID first and shows the link until the site
 * answers; a site that has not activated Grove is told apart from wrong credentials.
 */
describe('Mindbody site activation (integration, sandbox)', () => {
  let sandbox: RunningSandbox;
  let t: TestApp;
  let owner: TestAgent;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 20 });
    t = await createTestApp(sandboxEnv(sandbox));
    owner = (await t.signUp({ businessName: 'New Site Gym' })).agent;
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  const activation = async (siteId: string): Promise<MindbodySiteActivation> =>
    (await owner.get(`/api/mindbody/activation?siteId=${encodeURIComponent(siteId)}`).expect(200))
      .body as MindbodySiteActivation;

  it('an activated site answers at once; a new one gives the activation code and link', async () => {
    expect(await activation(sandbox.options.siteId)).toEqual({
      siteId: sandbox.options.siteId,
      activated: true,
      activationCode: null,
      activationLink: null,
    });
    const pending = await activation(NEW_SITE);
    expect(pending).toMatchObject({ siteId: NEW_SITE, activated: false });
    expect(pending.activationCode).toMatch(/^[0-9A-F]{8}$/);
    expect(pending.activationLink).toContain(
      `/sites/${NEW_SITE}/activation?code=${pending.activationCode}`,
    );
    // Nothing is stored: the wizard is still at stage 1.
    expect((await mindbodyStatus(owner)).stage).toBe(1);
  });

  it('needs a session, and another business asking about a site changes nothing of this one', async () => {
    await t.agent().get(`/api/mindbody/activation?siteId=${NEW_SITE}`).expect(401);
    const before = await mindbodyStatus(owner);
    const other = await t.signUp({ businessName: 'Other Gym' });
    await other.agent.get(`/api/mindbody/activation?siteId=${sandbox.options.siteId}`).expect(200);
    await other.agent.get('/api/mindbody/activation?siteId=abc').expect(400);
    expect(await mindbodyStatus(owner)).toEqual(before);
    expect((await mindbodyStatus(other.agent)).stage).toBe(1);
  });

  it('refuses a site ID that is not a number, and one Mindbody does not know', async () => {
    for (const siteId of ['', 'abc', '-', '12345678901'])
      expect(
        (await owner.get(`/api/mindbody/activation?siteId=${siteId}`).expect(400)).body.message,
      ).toEqual(MESSAGES.mindbodyInvalidSiteId);
    expect(
      (await owner.get('/api/mindbody/activation?siteId=12345').expect(400)).body.message,
    ).toBe(MESSAGES.mindbodyUnknownSite);
    await t.agent().get(`/api/mindbody/activation?siteId=${NEW_SITE}`).expect(401);
  });

  it('tells a site that has not activated Grove apart from wrong credentials (which keep SPEC’s message)', async () => {
    const login = { ...sandboxLogin(sandbox), siteId: NEW_SITE };
    for (const body of [login, { ...login, password: 'wrong-password' }]) {
      const reply = await owner.post('/api/mindbody/credentials').send(body).expect(400);
      expect(reply.body.message).toBe(MESSAGES.mindbodySiteNotActivated);
    }
    const wrong = await owner
      .post('/api/mindbody/credentials')
      .send({ ...sandboxLogin(sandbox), password: 'wrong-password' })
      .expect(400);
    expect(wrong.body.message).toBe(MESSAGES.mindbodyInvalidCredentials);
    expect((await mindbodyStatus(owner)).stage).toBe(1);
  });

  it('once the owner opens the link, the site answers ("Check again"), and its staff login connects it', async () => {
    const { activationLink } = await activation(NEW_SITE);
    const opened = await fetch(activationLink ?? '');
    expect(opened.status).toBe(200);
    expect(await activation(NEW_SITE)).toMatchObject({ activated: true, activationLink: null });
    // Wrong credentials on the activated site: SPEC's message again.
    const wrong = await owner
      .post('/api/mindbody/credentials')
      .send({ ...sandboxLogin(sandbox), siteId: NEW_SITE, password: 'wrong-password' })
      .expect(400);
    expect(wrong.body.message).toBe(MESSAGES.mindbodyInvalidCredentials);
    const connected = await owner
      .post('/api/mindbody/credentials')
      .send({ ...sandboxLogin(sandbox), siteId: NEW_SITE })
      .expect(200);
    expect(connected.body).toMatchObject({ stage: 2, siteId: NEW_SITE });
  });

  it('gives a site to one business: a second one with working credentials is refused, stores nothing, and the holder is told; after the holder removes it, the site connects', async () => {
    const holder = await t.signUp({ businessName: "O'Brien Fitness" });
    await holder.agent.post('/api/mindbody/credentials').send(sandboxLogin(sandbox)).expect(200);
    const claimant = await t.signUp({ businessName: 'Claimant Gym' });
    const refused = await claimant.agent
      .post('/api/mindbody/credentials')
      .send(sandboxLogin(sandbox))
      .expect(409);
    expect(refused.body.message).toBe(MESSAGES.mindbodySiteClaimed);
    // The refusal names no business; nothing was stored for the claimant.
    expect(refused.body.message).not.toContain("O'Brien");
    expect((await mindbodyStatus(claimant.agent)).stage).toBe(1);
    expect((await mindbodyStatus(holder.agent)).stage).toBe(2);
    const told = await waitFor(async () => {
      const rows = (await t.dataSource.query(
        `SELECT "to", subject, text FROM outbox_emails WHERE "to" = $1 AND subject LIKE 'Someone tried to connect%'`,
        [holder.user.email],
      )) as { to: string; subject: string; text: string }[];
      return rows[0];
    });
    expect(told.subject).toBe(
      `Someone tried to connect your Mindbody site ${sandbox.options.siteId} to another Grove account`,
    );
    expect(told.text).toContain("the site stays connected to O'Brien Fitness, and nothing changed");
    expect(told.text).not.toContain('Claimant Gym');

    // The holder releases the site: now the other business may connect it.
    await holder.agent.delete('/api/mindbody').expect(200);
    await claimant.agent.post('/api/mindbody/credentials').send(sandboxLogin(sandbox)).expect(200);
    expect((await mindbodyStatus(claimant.agent)).stage).toBe(2);
  });
});
