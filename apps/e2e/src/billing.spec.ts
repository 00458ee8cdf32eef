import { expect, type Page } from '@playwright/test';
import { MESSAGES } from '@grove/contracts';
import { startGrove, type GroveServer } from './grove-server';
import {
  addMember,
  approveProspect,
  emailTo,
  friendArrives,
  journeySmtp,
  signUp,
  test as base,
  treeRow,
} from './support';

const smtp = journeySmtp();

/** A phone's width (iPhone 12–15) and a common laptop's. */
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };

/**
 * Journeys that need a Grove configured otherwise than the e2e webServer (playwright.config.ts)
 * set `groveEnv` (`test.use`): a second Grove of their own (same build, own database, own Stripe
 * stand-in unless GROVE_BILLING=off) is started for each such test and `baseURL` points at it.
 */
const test = base.extend<{ groveEnv: Record<string, string> | null; ownGrove: GroveServer | null }>(
  {
    groveEnv: [null, { option: true }],
    ownGrove: [
      async ({ groveEnv }, use) => {
        const grove = groveEnv ? await startGrove(groveEnv) : null;
        await use(grove);
        await grove?.stop();
      },
      { timeout: 180_000 },
    ],
    baseURL: async ({ ownGrove, baseURL }, use) => use(ownGrove?.url ?? baseURL),
  },
);

/** The signed-in owner's bill as `GET /api/billing` answers it now. */
async function billingState(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/billing')).json()) as { state: string }).state;
}

/** The number of members the signed-in owner has (`GET /api/members`). */
async function memberCount(page: Page): Promise<number> {
  return ((await (await page.request.get('/api/members?pageSize=100')).json()) as { total: number })
    .total;
}

/** Adds Nina and gives her a referral link; → its code and URL. */
async function ninasLink(page: Page): Promise<{ code: string; url: string }> {
  const ninaId = await addMember(page, {
    name: 'Nina Ó Dálaigh',
    email: `nina.${Date.now()}@example.com`,
    price: '100',
    discount: '10',
  });
  const link = await page.request.post(`/api/members/${ninaId}/referral-link`);
  expect(link.status()).toBe(201);
  return (await link.json()) as { code: string; url: string };
}

/** The subscription Checkout created on the Stripe stand-in at `stripeOrigin` (its event log). */
async function subscriptionOn(page: Page, stripeOrigin: string): Promise<string> {
  const events = (await (await page.request.get(`${stripeOrigin}/_sandbox/events`)).json()) as {
    type: string;
    data: { object: { id: string } };
  }[];
  const created = events.find((event) => event.type === 'customer.subscription.created');
  expect(created).toBeDefined();
  return created?.data.object.id ?? '';
}

test("Grove's own bill: free (0 of 2), two friends arrive, Add a card → Stripe Checkout → active with the next charge, Manage billing → the portal; a failed payment → a banner and an email (issue 30)", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const owner = await signUp(page);
  await page.goto('/dashboard/account-settings/billing');
  const billing = page.getByRole('region', { name: 'Billing' });
  await expect(billing.getByText('0 of 2 members through Grove')).toBeVisible();
  await expect(billing.getByRole('button', { name: 'Add a card' })).toHaveCount(0);

  // Two friends arrive through Nina's referral link and are approved.
  const ninaId = await addMember(page, {
    name: 'Nina Ó Dálaigh',
    email: `nina.${Date.now()}@example.com`,
    price: '100',
    discount: '10',
  });
  const link = (await (await page.request.post(`/api/members/${ninaId}/referral-link`)).json()) as {
    code: string;
  };
  await friendArrives(page, link.code, "Aoife D'Souza", `aoife.${Date.now()}@example.com`);
  await friendArrives(page, link.code, 'José-María Núñez', `jose.${Date.now()}@example.com`);

  // Billing asks for a card (and the banner on every dashboard page says by when).
  await page.reload();
  await expect(billing.getByText('2 of 2 members through Grove')).toBeVisible();
  await expect(
    page.getByText(/Your first 2 members have arrived through Grove\. Add a card by/),
  ).toBeVisible();
  await page.screenshot({
    path: test.info().outputPath('billing-card-needed.png'),
    fullPage: true,
  });
  await billing.getByRole('button', { name: 'Add a card' }).click();

  // Stripe's Checkout (the stand-in): the plan's price, the test card prefilled.
  await expect(page).toHaveURL(/\/c\/pay\/cs_test_/);
  const stripeOrigin = new URL(page.url()).origin;
  await page.getByRole('button', { name: 'Pay $99.00' }).click();

  // Back on Billing: confirmed once Stripe's webhook arrived; the next charge is shown.
  await expect(page).toHaveURL(/\/dashboard\/account-settings\/billing\?billing=done$/);
  await expect(
    billing.getByText('Thank you: your card is saved and Grove is paid for.'),
  ).toBeVisible();
  await expect(billing.getByText('Active')).toBeVisible();
  await expect(billing.getByText(/^\$99\.00 on /)).toBeVisible();
  await expect(billing.getByRole('cell', { name: 'Paid' })).toBeVisible();
  await expect(page.getByText(/Add a card by/)).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('billing-active.png'), fullPage: true });

  // 'Manage billing' opens Stripe's Customer Portal.
  await billing.getByRole('button', { name: 'Manage billing' }).click();
  await expect(page).toHaveURL(/\/p\/session\/bps_/);
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();

  // The next renewal fails (Stripe's side): a banner on every dashboard page, and an email.
  const events = (await (await page.request.get(`${stripeOrigin}/_sandbox/events`)).json()) as {
    type: string;
    data: { object: { id: string; customer: string } };
  }[];
  const created = events.find((event) => event.type === 'customer.subscription.created');
  expect(created).toBeDefined();
  const failed = await page.request.post(
    `${stripeOrigin}/_sandbox/subscriptions/${created?.data.object.id}/fail_next_payment`,
  );
  expect(failed.ok()).toBe(true);
  await expect.poll(() => billingState(page)).toBe('past-due');
  await page.setViewportSize(LAPTOP);
  await page.goto('/dashboard');
  const banner = page.getByText(/Your last Grove payment failed\. Update your card by/);
  await expect(banner).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('billing-past-due-banner-1366.png') });
  await page.setViewportSize(PHONE);
  await expect(banner).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('billing-past-due-banner-390.png') });
  const mail = await emailTo(smtp, owner.email, 'Your Grove payment failed');
  expect(mail.text).toContain('$99.00');
  expect(mail.text).toContain('/dashboard/account-settings/billing');
  // The banner's link opens Billing.
  await page.getByRole('link', { name: 'Update your card' }).click();
  await expect(page).toHaveURL(/\/dashboard\/account-settings\/billing$/);
  // An address from an earlier version's email still opens Billing.
  await page.goto('/dashboard/account-settings#billing');
  await expect(page).toHaveURL(/\/dashboard\/account-settings\/billing$/);
  await expect(billing.getByRole('button', { name: 'Update your card' })).toBeVisible();
  await page.screenshot({
    path: test.info().outputPath('billing-past-due-390.png'),
    fullPage: true,
  });
});

test.describe('grace over (BILLING_GRACE_DAYS=0: an owing business pauses at once)', () => {
  test.use({ groveEnv: { BILLING_GRACE_DAYS: '0' } });

  test("a failed payment past its grace: the banner and email say so, a friend still joins, approving shows the paused message and changes nothing; the owner updates the card in Stripe's portal and the approval goes through (issue 30)", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const owner = await signUp(page);
    const link = await ninasLink(page);
    await friendArrives(page, link.code, "Aoife D'Souza", `aoife.${Date.now()}@example.com`);
    await friendArrives(page, link.code, 'José-María Núñez', `jose.${Date.now()}@example.com`);

    // Paying through Checkout, then the next renewal fails: with no grace left, Grove pauses.
    await page.goto('/dashboard/account-settings/billing');
    const billing = page.getByRole('region', { name: 'Billing' });
    await billing.getByRole('button', { name: 'Add a card' }).click();
    await expect(page).toHaveURL(/\/c\/pay\/cs_test_/);
    const stripeOrigin = new URL(page.url()).origin;
    await page.getByRole('button', { name: 'Pay $99.00' }).click();
    await expect(billing.getByText('Active')).toBeVisible();
    const subscription = await subscriptionOn(page, stripeOrigin);
    const failed = await page.request.post(
      `${stripeOrigin}/_sandbox/subscriptions/${subscription}/fail_next_payment`,
    );
    expect(failed.ok()).toBe(true);
    await expect.poll(() => billingState(page)).toBe('past-due');
    const mail = await emailTo(smtp, owner.email, 'Your Grove payment failed');
    expect(mail.text).toContain('$99.00');

    await page.setViewportSize(LAPTOP);
    await page.goto('/dashboard');
    const paused = page.getByText(
      'Grove is paused until your subscription is paid: approvals, imports and bill changes wait, and nothing is lost.',
    );
    await expect(paused).toBeVisible();
    await expect(page.getByText(/Update your card by/)).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('billing-paused-banner-1366.png') });
    await page.setViewportSize(PHONE);
    await expect(paused).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('billing-paused-banner-390.png') });
    await page.setViewportSize(LAPTOP);

    // A friend still joins through Nina's link and waits as a prospective member.
    const friendContext = await browser.newContext({ viewport: PHONE });
    const friend = await friendContext.newPage();
    await friend.goto(link.url);
    await friend.getByLabel('Name').fill('Siobhán Ní Bhriain');
    await friend.getByLabel('Email').fill(`siobhan.${Date.now()}@example.com`);
    await friend.getByRole('button', { name: 'Submit' }).click();
    await expect(friend.getByText('Successfully registered!')).toBeVisible();
    await friendContext.close();

    // Approving shows the paused message; nothing changes.
    const members = await memberCount(page);
    await page.goto('/dashboard/prospective-members');
    const row = page.getByTestId('prospect-row').filter({ hasText: 'Siobhán Ní Bhriain' });
    await row.getByRole('button', { name: 'Approve' }).click();
    const form = page.getByRole('dialog', { name: 'Add a New Branch to Nina Ó Dálaigh' });
    await form.getByLabel('Current Membership ($)').fill('80');
    await form.getByLabel('Discount Per Referral ($)').fill('10');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText(MESSAGES.billingPaused)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('billing-paused-approve-1366.png') });
    await page.setViewportSize(PHONE);
    await expect(form.getByText(MESSAGES.billingPaused)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('billing-paused-approve-390.png') });
    await page.setViewportSize(LAPTOP);
    await page.reload();
    await expect(row).toBeVisible();
    expect(await memberCount(page)).toBe(members);

    // The owner updates the card in Stripe's Customer Portal: the failed invoice is paid.
    await page.goto('/dashboard/account-settings/billing');
    await expect(billing.getByText('Payment failed', { exact: true })).toBeVisible();
    await expect(
      billing.getByText(
        'Approvals, imports and bill changes are paused until it is paid; nothing is lost.',
      ),
    ).toBeVisible();
    await billing.getByRole('button', { name: 'Update your card' }).click();
    await expect(page).toHaveURL(/\/p\/session\/bps_/);
    await expect(page.getByText('Your last payment of $99.00 failed.')).toBeVisible();
    await page.getByRole('button', { name: 'Update card and pay $99.00' }).click();
    await expect(page.getByText('Status: active')).toBeVisible();
    await expect.poll(() => billingState(page)).toBe('active');
    await page.getByRole('link', { name: 'Return' }).click();
    await expect(page).toHaveURL(/\/dashboard\/account-settings\/billing$/);
    await expect(billing.getByText('Active')).toBeVisible();
    await expect(paused).toHaveCount(0);

    // The approval now goes through: the friend is a member, nobody waits.
    await approveProspect(page, {
      friend: 'Siobhán Ní Bhriain',
      referrer: 'Nina Ó Dálaigh',
      price: '80',
      discount: '10',
    });
    await expect(row).toHaveCount(0);
    expect(await memberCount(page)).toBe(members + 1);
    await page.goto('/dashboard');
    await expect(treeRow(page, 'Siobhán Ní Bhriain')).toBeVisible();
  });
});

test.describe('GROVE_BILLING=off (an operator running Grove for their own gym)', () => {
  test.use({ groveEnv: { GROVE_BILLING: 'off' } });

  test('shows no billing at all: no Billing in Account Settings, no banner, approvals past 2 members (issue 30)', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signUp(page);
    const link = await ninasLink(page);
    await friendArrives(page, link.code, "Aoife D'Souza", `aoife.${Date.now()}@example.com`);
    await friendArrives(page, link.code, 'José-María Núñez', `jose.${Date.now()}@example.com`);
    // A third friend, approved on Prospective Members: nothing asks for a card or pauses.
    const joined = await page.request.post(`/api/referrals/${link.code}/join`, {
      data: { name: 'Mary-Kate Ó Súilleabháin', email: `mk.${Date.now()}@example.com` },
    });
    expect(joined.status()).toBe(201);
    await approveProspect(page, {
      friend: 'Mary-Kate Ó Súilleabháin',
      referrer: 'Nina Ó Dálaigh',
      price: '80',
      discount: '10',
    });
    await page.goto('/dashboard');
    await expect(treeRow(page, 'Mary-Kate Ó Súilleabháin')).toBeVisible();

    const billingRead = page.waitForResponse((reply) => reply.url().endsWith('/api/billing'));
    await page.goto('/dashboard/account-settings');
    expect(((await (await billingRead).json()) as { enabled: boolean }).enabled).toBe(false);
    await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Billing' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Billing' })).toHaveCount(0);
    await expect(
      page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Billing' }),
    ).toHaveCount(0);
    await expect(page.getByText(/Add a card|Update your card|Grove is paused/)).toHaveCount(0);
    await page.screenshot({
      path: test.info().outputPath('billing-off-account-settings.png'),
      fullPage: true,
    });
  });
});
