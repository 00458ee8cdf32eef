import { expect, type Page } from '@playwright/test';
import { addMember, emailTo, journeySmtp, signUp, test } from './support';

const smtp = journeySmtp();

/** A friend joins through `code`'s referral link and the owner approves them (one member through Grove). */
async function friendArrives(page: Page, code: string, name: string, email: string) {
  const joined = await page.request.post(`/api/referrals/${code}/join`, { data: { name, email } });
  expect(joined.status()).toBe(201);
  const prospects = (await (await page.request.get('/api/prospects?pageSize=100')).json()) as {
    items: { id: string; email: string }[];
  };
  const prospect = prospects.items.find((row) => row.email === email);
  expect(prospect, `${email} waits as a prospective member`).toBeDefined();
  const approved = await page.request.post(`/api/prospects/${prospect?.id}/approve`, {
    data: {
      memberName: name,
      memberEmail: email,
      membershipPriceCents: 8_000,
      discountCents: 1_000,
    },
  });
  expect(approved.status()).toBe(201);
}

test("Grove's own bill: free (0 of 2), two friends arrive, Add a card → Stripe Checkout → active with the next charge, Manage billing → the portal; a failed payment → a banner and an email (issue 30)", async ({
  page,
}) => {
  const owner = await signUp(page);
  await page.goto('/dashboard/account-settings#billing');
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
  await expect(page).toHaveURL(/\/dashboard\/account-settings\?billing=done#billing$/);
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
  await page.goto('/dashboard');
  await expect(page.getByText(/Your last Grove payment failed\. Update your card by/)).toBeVisible({
    timeout: 15_000,
  });
  const mail = await emailTo(smtp, owner.email, 'Your Grove payment failed');
  expect(mail.text).toContain('$99.00');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard/account-settings#billing');
  await expect(billing.getByRole('button', { name: 'Update your card' })).toBeVisible();
  await page.screenshot({
    path: test.info().outputPath('billing-past-due-390.png'),
    fullPage: true,
  });
});
