import { expect } from '@playwright/test';
import type { ProspectRow, Page as ListPage } from '@grove/contracts';
import { accessibilityViolations, autoLinksOff, signUp, test } from './support';

test('a friend joins through a referral link shared on WhatsApp and is approved: the analytics funnel shows the visit, the join and the approval, under WhatsApp', async ({
  page,
  browser,
}) => {
  await signUp(page);
  // One link shared (Nina's, by hand): the approved friend gets no automatic one here.
  await autoLinksOff(page);
  const created = await page.request.post('/api/members', {
    data: {
      memberName: 'Nina Novak',
      memberEmail: 'nina.novak@example.com',
      membershipPriceCents: 8000,
      discountCents: 1000,
    },
  });
  expect(created.status()).toBe(201);
  const nina = (await created.json()) as { id: string };
  const link = await page.request.post(`/api/members/${nina.id}/referral-link`, { data: {} });
  expect(link.ok()).toBe(true);
  const { url } = (await link.json()) as { url: string };

  // Before anyone visits, the funnel shows the shared link and says what comes next.
  await page.goto('/dashboard');
  await page
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: 'Analytics' })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/analytics$/);
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();

  // A friend opens Nina's link on another device, as her member page's WhatsApp button shares it
  // (member-page.spec.ts follows that button to wa.me), and joins.
  const friendContext = await browser.newContext();
  const friend = await friendContext.newPage();
  await friend.goto(`${url}?via=whatsapp`);
  await friend.getByLabel('Name').fill('Omar Haddad');
  await friend.getByLabel('Email').fill('omar.haddad@example.com');
  await friend.getByRole('button', { name: 'Submit' }).click();
  await expect(friend.getByText('Successfully registered!')).toBeVisible();
  await friendContext.close();

  // The owner approves Omar as Nina's branch.
  const prospects = (await (
    await page.request.get('/api/prospects')
  ).json()) as ListPage<ProspectRow>;
  const omar = prospects.items.find((row) => row.name === 'Omar Haddad');
  expect(omar).toBeDefined();
  const approved = await page.request.post(`/api/prospects/${omar!.id}/approve`, {
    data: {
      memberName: 'Omar Haddad',
      memberEmail: 'omar.haddad@example.com',
      membershipPriceCents: 8000,
      discountCents: 1000,
    },
  });
  expect(approved.ok()).toBe(true);

  // The funnel now shows the visit, the join and the approval.
  await page.reload();
  const funnel = page.getByRole('table', { name: /Referral funnel/ });
  await expect(funnel.getByRole('row', { name: /Links shared/ })).toContainText('1');
  await expect(funnel.getByRole('row', { name: /Join-page visits/ })).toContainText('1');
  await expect(funnel.getByRole('row', { name: /^Joins/ })).toContainText('1100.0%');
  await expect(funnel.getByRole('row', { name: /Approved branches/ })).toContainText('1100.0%');
  // Nina gained a branch and saves $10.00 a month from now on.
  const top = page.getByRole('table', { name: /gained the most branches/ });
  await expect(top.getByRole('row', { name: /Nina Novak/ })).toContainText('1');
  // Joins by channel: the visit, the join and the approval came through WhatsApp, and only there.
  const channels = page.getByRole('table', { name: /approvals by channel/ });
  await expect(channels.getByRole('row')).toHaveText([
    /Channel\s*Visits\s*Joins\s*Approved/,
    /WhatsApp\s*1\s*1\s*1/,
  ]);
  expect(await accessibilityViolations(page)).toEqual([]);

  // A phone-sized screen shows it without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(funnel).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
