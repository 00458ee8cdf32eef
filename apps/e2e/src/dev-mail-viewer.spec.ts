import { test as base, expect } from '@playwright/test';
import { freePort, startGrove, type GroveServer } from './grove-server';
import { signUp } from './support';

// README "Two commands": without SMTP_URL, `npm start` starts MailDev and every email Grove sends
// can be read on its web page. This journey runs a Grove of its own as `npm start` runs it, with
// no SMTP_URL (the e2e webServer has one: its journeys read mail from their own SMTP server).
const test = base.extend<object, { devGrove: GroveServer & { mailViewer: string } }>({
  devGrove: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const webPort = await freePort();
      const grove = await startGrove({
        SMTP_URL: '',
        GROVE_MAIL_WEB_PORT: String(webPort),
        GROVE_MAIL_SMTP_PORT: '0',
      });
      await use({ ...grove, mailViewer: `http://localhost:${webPort}` });
      await grove.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ devGrove }, use) => use(devGrove.url),
});

test('npm start shows every email Grove sends on the mail viewer’s page', async ({
  page,
  devGrove,
}) => {
  const owner = await signUp(page);
  const changed = await page.request.post('/api/account/password', {
    headers: { Origin: devGrove.url },
    data: { currentPassword: owner.password, newPassword: 'a new and longer password' },
  });
  expect(changed.status()).toBeLessThan(300);

  // The email arrives at MailDev (its REST API lists what its page shows)…
  await expect
    .poll(
      async () => {
        const reply = await page.request.get(`${devGrove.mailViewer}/api/email`);
        const emails = (await reply.json()) as { subject: string; to: { address: string }[] }[];
        return emails.map((mail) => `${mail.to[0]?.address}: ${mail.subject}`);
      },
      { timeout: 30_000 },
    )
    .toEqual(
      expect.arrayContaining([
        // The sign-up link too (README: where a person trying Grove locally finds it).
        `${owner.email}: Confirm your email to finish creating your Grove account`,
        `${owner.email}: Your Grove password was changed`,
      ]),
    );

  // …and a developer reads it on the page.
  await page.goto(devGrove.mailViewer);
  await expect(page.getByText('Your Grove password was changed').first()).toBeVisible();
});
