import { expect, test as plainTest } from '@playwright/test';
import { test } from './support';
import { E2E_CAPTCHA_IMAGE_ANSWER } from '../playwright.config';

// The public site with JavaScript off, as link previews, many crawlers and a visitor on a
// locked-down browser read it: every page is in the first HTML, prerendered by the marketing
// remote's build and put into the shell's page by the API (docs/architecture.md#prerendered-pages).
test.use({ javaScriptEnabled: false });

/** Every public page with its headline and text a visitor must find in it. */
const pages: { path: string; heading: string; texts: (string | RegExp)[] }[] = [
  {
    path: '/',
    heading: 'Grow your gym through the people who already love it',
    texts: ['Businesses are ready to launch', 'Supported CRM', 'Mindbody sync', '24/7 support'],
  },
  {
    path: '/pricing',
    heading: 'Simple & Transparent Pricing',
    texts: ['$99', 'per month', 'Free until your first 2 members arrive through Grove.'],
  },
  {
    path: '/about',
    heading: 'Built for businesses that grow by word of mouth',
    texts: ['Our Mission', 'The Founding Story', /loyal communities/],
  },
  {
    path: '/contact',
    heading: 'Contact us',
    texts: ['a real person will get back to you', 'Support around the clock, 24/7'],
  },
  {
    path: '/privacyPolicy',
    heading: 'Global Privacy Policy',
    texts: ['Last updated November 24 2023', 'privacy@grove.app'],
  },
  {
    path: '/landingPage',
    heading: 'Your members are your best marketing',
    texts: ['Supports Mindbody Integration'],
  },
];

for (const { path, heading, texts } of pages) {
  test(`without JavaScript, ${path} shows its headline and text under its own title`, async ({
    page,
  }) => {
    const reply = await page.goto(path);
    expect(reply?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    for (const text of texts) await expect(page.getByText(text).first()).toBeVisible();
    await expect(page.getByText('Grove needs JavaScript to run.')).toHaveCount(0);
    await expect(page).toHaveTitle(/· Grove$/);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
      'content',
      /^http.*\/prerendered\/og\/.+\.(png|svg)$/,
    );
    // The top bar's links work as plain links.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'About' })
      .click();
    await expect(
      page.getByRole('heading', {
        level: 1,
        name: 'Built for businesses that grow by word of mouth',
      }),
    ).toBeVisible();
  });
}

// Without the ./support fixture, which fails a test on any error reply: this one is a 404.
plainTest.describe(() => {
  plainTest.use({ javaScriptEnabled: false });
  plainTest('without JavaScript, an unknown path shows the 404 screen', async ({ page }) => {
    const reply = await page.goto('/no-such-page');
    expect(reply?.status()).toBe(404);
    await expect(
      page.getByRole('heading', { level: 1, name: 'OOPS.. PAGE NOT FOUND!' }),
    ).toBeVisible();
  });
});

test('the Open Graph image of a page is served', async ({ page, request }) => {
  await page.goto('/pricing');
  const image = await page.locator('meta[property="og:image"]').getAttribute('content');
  const reply = await request.get(image ?? '');
  expect(reply.status()).toBe(200);
  expect(reply.headers()['content-type']).toMatch(/^image\//);
});

// The contact form without JavaScript: a plain HTML form the API answers with the page, its
// captcha a code to read (docs/decisions/contact-form-without-javascript.md).
plainTest.describe('the contact form without JavaScript', () => {
  plainTest.use({ javaScriptEnabled: false });

  plainTest('sends a message and shows the thanks', async ({ page }) => {
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact us' });
    await form.getByLabel('First Name').fill('Siobhán');
    await form.getByLabel('Last Name').fill("O'Brien");
    await form.getByLabel('Email').fill('siobhan.obrien@example.ie');
    await form.getByLabel('Country').selectOption('IE');
    await form.getByLabel('Phone').fill('087 123 4567');
    await form.getByLabel('Company Website').fill('https://corkclimbing.ie');
    await form.getByLabel('Message').fill('Could we see a walkthrough for our two gyms in Cork?');
    await expect(form.getByRole('img', { name: /code of letters and digits/ })).toBeVisible();
    await form.getByLabel('Type the code shown above').fill(E2E_CAPTCHA_IMAGE_ANSWER);
    const [reply] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      form.getByRole('button', { name: 'Submit' }).click(),
    ]);
    expect(reply.status()).toBe(200);
    await expect(
      page.getByText("Thank you for your message! We'll be in touch soon."),
    ).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Contact us' })).toBeVisible();
  });

  plainTest(
    'shows each bad field’s message under it and keeps what was typed',
    async ({ page }) => {
      await page.goto('/contact');
      const form = page.getByRole('form', { name: 'Contact us' });
      await form.getByLabel('First Name').fill('Zoë');
      await form.getByLabel('Last Name').fill("D'Arcy-Nguyễn");
      await form.getByLabel('Email').fill('zoe@');
      await form.getByLabel('Phone').fill('12');
      await form.getByLabel('Company Website').fill('not a site');
      await form.getByRole('button', { name: 'Submit' }).click();
      const again = page.getByRole('form', { name: 'Contact us' });
      await expect(again.getByText('Not a valid email address')).toBeVisible();
      await expect(again.getByText('Not a valid phone number')).toBeVisible();
      await expect(again.getByText('Not a valid URL')).toBeVisible();
      await expect(again.getByText('Please enter a message')).toBeVisible();
      await expect(again.getByText('Please complete the captcha')).toBeVisible();
      await expect(again.getByLabel('First Name')).toHaveValue('Zoë');
      await expect(again.getByLabel('Last Name')).toHaveValue("D'Arcy-Nguyễn");
      await expect(again.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');

      // A wrong code: the form's failure, nothing sent.
      await again.getByLabel('Email').fill('zoe@example.com.au');
      await again.getByLabel('Phone').fill('0412 345 678');
      await again.getByLabel('Company Website').fill('brisbanebarbell.com.au');
      await again.getByLabel('Message').fill('Hello from Brisbane');
      await again.getByLabel('Type the code shown above').fill('WRONG');
      await again.getByRole('button', { name: 'Submit' }).click();
      await expect(
        page.getByText('Error: Please ensure you have completed the reCAPTCHA correctly.'),
      ).toBeVisible();
      await expect(page.getByText('Thank you for your message!')).toHaveCount(0);
    },
  );
});
