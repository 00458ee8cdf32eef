import {
  queuedSignupLink,
  recipient,
  startSmtpCatcher,
  type ParsedMail,
  type SmtpCatcher,
} from '@grove/testing-smtp';
import { dollarsToCents, type MindbodySiteActivation, type MindbodyStatus } from '@grove/contracts';
import pg from 'pg';
import { E2E_JWT_SECRET, smtpPort } from '../playwright.config';
import { groveDatabaseUrl } from './grove-server';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

/** Whether a URL is one of Grove's API calls (whose 4xx replies some journeys provoke on purpose). */
const isApiCall = (url: string) => new URL(url).pathname.startsWith('/api/');

/**
 * Chromium's line when Playwright itself runs a script in a sandboxed frame without
 * `allow-scripts` (its screenshots hide the caret in every frame: microsoft/playwright#33343).
 * The referral email example is such a frame (`sandbox=""`, srcdoc); the app runs no script there.
 */
const PLAYWRIGHT_IN_SANDBOXED_FRAME =
  /^Blocked script execution in 'about:(srcdoc|blank)' because the document's frame is sandboxed/;

/**
 * What went wrong on `page` so far, recorded from the moment it is called: uncaught errors,
 * console errors (a CSP refusal is one), requests that failed, and 4xx/5xx replies. API calls'
 * 4xx replies (and the browser's console line about them) are the app answering bad input or a
 * missing session, which journeys provoke on purpose; an API 5xx still counts. A request aborted
 * because the page navigated on is not a failure.
 */
export function watchForProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const source = message.location().url;
    if (message.text().startsWith('Failed to load resource') && source && isApiCall(source)) return;
    if (PLAYWRIGHT_IN_SANDBOXED_FRAME.test(message.text())) return;
    problems.push(`console: ${message.text()}${source ? ` (${source})` : ''}`);
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    if (reason !== 'net::ERR_ABORTED') problems.push(`failed: ${request.url()} ${reason}`);
  });
  page.on('response', (response) => {
    const status = response.status();
    if (status >= 500 || (status >= 400 && !isApiCall(response.url())))
      problems.push(`${status}: ${response.url()}`);
  });
  return problems;
}

/**
 * Playwright's `test` whose every test also fails on any problem {@link watchForProblems} records
 * on its page: the public-site and trees journeys use it, on Grove's origin and with the remotes on
 * origins of their own (playwright.cross-origin.config.ts).
 */
export const test = base.extend<{ noProblems: void }>({
  noProblems: [
    async ({ page }, use) => {
      const problems = watchForProblems(page);
      await use();
      expect(problems, 'console errors, failed requests or error replies').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * The Mindbody sandbox's site and its owner's staff credentials (apps/mindbody-sandbox). One
 * business holds a site at a time (issue 31: a second claim is refused), so a journey that uses
 * this runs in the `one-at-a-time` project (playwright.config.ts finds the name in its source).
 */
export const MINDBODY_SANDBOX_SITE = {
  username: 'owner@sandbox.example.com',
  password: 'sandbox-pass-1234',
  siteId: '-99',
};

/** The Mindbody sandbox's origin, read from the activation link Grove makes for a site. */
export async function sandboxOrigin(page: Page): Promise<string> {
  const activation = (await (
    await page.request.get('/api/mindbody/activation?siteId=-98')
  ).json()) as MindbodySiteActivation;
  return new URL(activation.activationLink ?? '').origin;
}

/** Connects the signed-in owner's business to the sandbox and imports it (stage 4), through the API. */
export async function connectMindbody(page: Page): Promise<void> {
  expect(
    (
      await page.request.post('/api/mindbody/credentials', { data: MINDBODY_SANDBOX_SITE })
    ).status(),
  ).toBe(200);
  expect((await page.request.post('/api/mindbody/import')).status()).toBe(202);
  await expect
    .poll(
      async () =>
        ((await (await page.request.get('/api/mindbody')).json()) as MindbodyStatus).processState,
      { timeout: 60_000 },
    )
    .toMatch(/^completed /);
  expect(
    (
      await page.request.put('/api/mindbody/discounts', {
        data: { discountOnReferralCents: 1_000, discountForRefereeCents: 0 },
      })
    ).status(),
  ).toBe(200);
}

/** A unique, valid owner for one test. */
export function newOwner() {
  const id = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  return {
    businessName: 'Riverside Strength',
    firstName: 'Jordan',
    lastName: 'Avery',
    email: `owner${id}@riverside.example`,
    phoneNumber: '0412 345 678',
    website: 'riverside.example.com',
    password: 'a long enough password',
  };
}

/**
 * Signs a new owner up as a person does (docs/product.md#signup): the signup page, 'Check your
 * email', then the emailed link, and waits for the dashboard.
 */
export async function signUp(page: Page, owner = newOwner()) {
  await page.goto('/signup');
  await page.getByLabel('Business name').fill(owner.businessName);
  await page.getByLabel('First name').fill(owner.firstName);
  await page.getByLabel('Last name').fill(owner.lastName);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Phone number').fill(owner.phoneNumber);
  await page.getByLabel('Website').fill(owner.website);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await finishSignUp(page, owner.email);
  return owner;
}

/**
 * After 'Create account' on the signup page: waits for 'Check your email', opens the sign-up link
 * Grove emailed to `email` ({@link signupLink}), presses 'Finish signing up' and waits for the
 * dashboard.
 */
export async function finishSignUp(page: Page, email: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await page.goto(await signupLink(page, email));
  await page.getByRole('button', { name: 'Finish signing up' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * The sign-up link (`…/signup/confirm#token=…`) Grove emailed to `email`, read from the email as
 * Grove queued it (`queuedSignupLink` of `@grove/testing-smtp`: its `mail.send` job, the body
 * sealed under {@link E2E_JWT_SECRET}): most journeys have no SMTP server listening (only one
 * journey at a time may own the port, {@link journeySmtp}). The database is that of the Grove
 * `page` is on ({@link groveDatabaseUrl}).
 */
export async function signupLink(page: Page, email: string): Promise<string> {
  const client = new pg.Client(groveDatabaseUrl(new URL(page.url()).origin));
  await client.connect();
  try {
    return (await queuedSignupLink(client, email, E2E_JWT_SECRET)).link;
  } finally {
    await client.end();
  }
}

/** Logs in on the login page (the page must be at /login) and waits for the dashboard. */
export async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** axe-core's impact levels: 'minor', 'moderate', 'serious', 'critical'. */
type ImpactValue = NonNullable<
  Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number]['impact']
>;

/** What {@link accessibilityViolations} checks. */
export interface AccessibilityCheck {
  /** Only this part of the page (a CSS selector), e.g. 'dialog'. */
  include?: string;
  /** axe-core rule tags; WCAG 2.1 A/AA unless told. */
  tags?: string[];
  /** Only violations of these impacts; all of them unless told. */
  impacts?: ImpactValue[];
}

/** The serious and critical impacts, for checks that report only those. */
export const BLOCKING_IMPACTS: ImpactValue[] = ['serious', 'critical'];

/** axe-core's violations on the page as it is now, each as 'rule id: the offending nodes'. */
export async function accessibilityViolations(
  page: Page,
  {
    include,
    tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'],
    impacts,
  }: AccessibilityCheck = {},
): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const result = await builder.withTags(tags).analyze();
  return result.violations
    .filter(
      (violation) => !impacts || (violation.impact != null && impacts.includes(violation.impact)),
    )
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * Adds a member through the API as the signed-in owner of `page` (`POST /api/members`), as a
 * branch of `referringMemberId` when given; the journey's amounts are dollars as an owner types
 * them, sent as the API takes them: integer cents (`dollarsToCents`).
 * @returns the new member's id
 */
export async function addMember(
  page: Page,
  member: { name: string; email: string; price: string; discount: string },
  referringMemberId?: string,
): Promise<string> {
  const reply = await page.request.post('/api/members', {
    data: {
      memberName: member.name,
      memberEmail: member.email,
      membershipPriceCents: dollarsToCents(member.price),
      discountCents: dollarsToCents(member.discount),
      ...(referringMemberId ? { referringMemberId } : {}),
    },
  });
  expect(reply.status()).toBe(201);
  return ((await reply.json()) as { id: string }).id;
}

/**
 * Starts the journey's own SMTP server on `smtpPort`, where Grove's SMTP_URL points in the
 * journeys; nothing listens there otherwise.
 */
export function startJourneySmtp(): Promise<SmtpCatcher> {
  return startSmtpCatcher({ port: smtpPort });
}

/**
 * The journey's own SMTP server for the tests of the calling spec file: started before them and
 * closed after them (call at the file's top level). `emails` fills as emails arrive.
 */
export function journeySmtp(): Pick<SmtpCatcher, 'emails'> {
  const inbox: Pick<SmtpCatcher, 'emails'> = { emails: [] };
  let catcher: SmtpCatcher | undefined;
  base.beforeAll(async () => {
    catcher = await startJourneySmtp();
    inbox.emails = catcher.emails;
  });
  base.afterAll(async () => {
    await catcher?.close();
  });
  return inbox;
}

/**
 * Waits for the one email with this subject to `address` on the journey's SMTP server and
 * returns it (other journeys' emails, retried once this server listens, may arrive too).
 */
export async function emailTo(
  smtp: Pick<SmtpCatcher, 'emails'>,
  address: string,
  subject: string,
): Promise<ParsedMail> {
  const matching = () =>
    smtp.emails.filter((mail) => mail.subject === subject && recipient(mail) === address);
  await expect.poll(() => matching().length, { timeout: 20_000 }).toBe(1);
  return matching()[0] as ParsedMail;
}

/**
 * The owner signed in on `page` invites `email` as `role` on Account Settings → Team and waits for
 * 'Invitation sent to …'.
 */
export async function inviteStaff(
  page: Page,
  email: string,
  role: 'manager' | 'front_desk' | 'viewer',
): Promise<void> {
  await page.goto('/dashboard/account-settings/team');
  await page.getByLabel('Email to invite').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption(role);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
}

/** The invitation link (`…/accept-invitation#token=…`) in the email `inviter` sent to `email`. */
export async function invitationLink(
  smtp: Pick<SmtpCatcher, 'emails'>,
  email: string,
  inviter: { firstName: string; businessName: string },
): Promise<string> {
  const mail = await emailTo(
    smtp,
    email,
    `${inviter.firstName} invited you to ${inviter.businessName} on Grove`,
  );
  const link = /(https?:\/\/\S+\/accept-invitation#token=[A-Za-z0-9_-]+)/.exec(
    mail.text ?? '',
  )?.[1];
  expect(link, 'an invitation link in the email').toBeDefined();
  return link ?? '';
}

/**
 * Chromium's virtual authenticator on `page` (CDP `WebAuthn.enable` +
 * `WebAuthn.addVirtualAuthenticator`): a platform authenticator with resident keys and user
 * verification that answers every passkey prompt at once (docs/decisions/passkeys.md).
 * @returns the CDP session and the authenticator's id (for `WebAuthn.getCredentials`)
 */
export async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** The member page magic link (`http…/member#token=…`) in an email's plain-text part. */
export function magicLinkIn(mail: ParsedMail | undefined): string {
  const link = /(https?:\/\/\S+\/member#token=[A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1];
  expect(link, 'a member page magic link in the email').toBeDefined();
  return link ?? '';
}

/**
 * The owner approves a prospect on Prospective Members through the prefilled add-branch form,
 * with the membership price and discount typed in dollars, and waits for the form to close.
 */
export async function approveProspect(
  page: Page,
  prospect: { friend: string; referrer: string; price: string; discount: string },
): Promise<void> {
  await page.goto('/dashboard/prospective-members');
  await page
    .getByTestId('prospect-row')
    .filter({ hasText: prospect.friend })
    .getByRole('button', { name: 'Approve' })
    .click();
  const form = page.getByRole('dialog', { name: `Add a New Branch to ${prospect.referrer}` });
  await form.getByLabel('Current Membership ($)').fill(prospect.price);
  await form.getByLabel('Discount Per Referral ($)').fill(prospect.discount);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
}

/**
 * The Branches table's row of the tree named `name` (its member link), not a row that merely
 * mentions it (a branch's Referred by column names its referrer).
 */
export function treeRow(page: Page, name: string) {
  return page
    .getByTestId('tree-row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

/**
 * The owner turns automatic referral links off on Referral Links (on by default for a new
 * business since issue 25), for a journey that shows a member without a link first.
 */
export async function autoLinksOff(page: Page): Promise<void> {
  await page.goto('/referral-links');
  const box = page.getByRole('checkbox', { name: /Create a referral link automatically/ });
  await expect(box).toBeChecked();
  const saved = page.waitForResponse(
    (reply) =>
      reply.url().endsWith('/api/referral-links/settings') && reply.request().method() === 'PUT',
  );
  await box.uncheck();
  expect((await saved).status()).toBe(200);
  await expect(box).not.toBeChecked();
}

/**
 * A friend joins through `code`'s referral link (`POST /api/referrals/{code}/join`) and the signed-in
 * owner approves them through the API ($80, $10 discount): one member through Grove.
 */
export async function friendArrives(page: Page, code: string, name: string, email: string) {
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
