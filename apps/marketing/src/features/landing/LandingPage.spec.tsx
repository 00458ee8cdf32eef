import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@grove/contracts';
import { HttpResponse, apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { altchaConfig, solveCaptcha } from '../../components/captcha/captcha.testing';
import { LandingPage } from './LandingPage';

// The real widget needs Web Crypto and workers; here the form only has to render its element.
jest.mock('../../components/captcha/load-altcha', () => ({ loadAltcha: async () => undefined }));
jest.mock('./assets/product-tour.mp4', () => '/remotes/marketing/assets/product-tour.mp4');
jest.mock(
  './assets/product-tour-poster.webp',
  () => '/remotes/marketing/assets/product-tour-poster.webp',
);

/** The bodies of every `POST /api/leads`, in order. */
let leadPosts: unknown[] = [];
/** The reply to `POST /api/leads` (a 500 unless a test says otherwise). */
let leadReply: () => Response;

beforeEach(() => {
  leadPosts = [];
  leadReply = () => apiError(500, 'Internal server error');
  server.use(
    altchaConfig(),
    http.post('/leads', async ({ request }) => {
      leadPosts.push(await request.json());
      return leadReply() as never;
    }),
  );
});

const leadSent = () => HttpResponse.json({ message: MESSAGES.leadSuccess }, { status: 201 });

function renderPage() {
  renderWithProviders(<LandingPage />);
}

/** Opens the Learn More pop-up and waits for its form (loaded on demand). */
async function openLeadForm() {
  await userEvent.click(screen.getByRole('button', { name: 'Learn More' }));
  await screen.findByLabelText('Full name');
  return screen.getByRole('dialog', { hidden: true });
}

async function fillLead(values: {
  fullName: string;
  email: string;
  phone: string;
  company: string;
}) {
  await userEvent.type(screen.getByLabelText('Full name'), values.fullName);
  await userEvent.type(screen.getByLabelText('Email'), values.email);
  await userEvent.type(screen.getByLabelText('Phone'), values.phone);
  await userEvent.type(screen.getByLabelText('Company'), values.company);
}

const validLead = {
  fullName: 'Sam Lee',
  email: 'sam@mygym.com.au',
  phone: '0412 345 678',
  company: 'Green Valley Fitness',
};

it('shows the headline, Try Free to /signup, the Mindbody note and a labelled video', () => {
  renderPage();
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
    'Your members are your best marketing',
  );
  expect(
    within(screen.getByRole('main')).getByRole('link', { name: 'Try Free' }).getAttribute('href'),
  ).toBe('/signup');
  expect(screen.getByText('Supports Mindbody Integration')).toBeTruthy();
  const video = screen.getByLabelText(/Grove product tour/);
  expect(video.getAttribute('poster')).toBe('/remotes/marketing/assets/product-tour-poster.webp');
  expect(video.getAttribute('preload')).toBe('none');
});

it('Learn More checks every field with the SPEC messages, asks for the captcha and sends nothing', async () => {
  renderPage();
  const dialog = await openLeadForm();
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
  expect(await within(dialog).findByText(MESSAGES.invalidName)).toBeTruthy();
  expect(within(dialog).getByText(MESSAGES.invalidEmail)).toBeTruthy();
  expect(within(dialog).getByText(MESSAGES.invalidPhone)).toBeTruthy();
  expect(within(dialog).getByText(MESSAGES.companyRequired)).toBeTruthy();
  expect(within(dialog).getByText(MESSAGES.captchaRequired)).toBeTruthy();
  expect(screen.getByLabelText('Full name').getAttribute('aria-invalid')).toBe('true');
  expect(leadPosts).toEqual([]);
});

it('does not send valid fields without a solved captcha', async () => {
  renderPage();
  const dialog = await openLeadForm();
  await fillLead(validLead);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
  expect(await within(dialog).findByText(MESSAGES.captchaRequired)).toBeTruthy();
  expect(leadPosts).toEqual([]);
});

it('sends the lead and shows the server’s message in the pop-up', async () => {
  leadReply = leadSent;
  renderPage();
  const dialog = await openLeadForm();
  await fillLead(validLead);
  await solveCaptcha('lead-payload');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
  expect((await within(dialog).findByRole('status', { hidden: true })).textContent).toBe(
    MESSAGES.leadSuccess,
  );
  expect(leadPosts).toEqual([
    {
      ...validLead,
      country: 'AU',
      captcha: 'lead-payload',
    },
  ]);
  expect(screen.queryByLabelText('Full name')).toBeNull();
});

it("Learn More reads the phone for the visitor's country (Australia unless changed, issue 25)", async () => {
  leadReply = leadSent;
  renderPage();
  const dialog = await openLeadForm();
  expect((within(dialog).getByLabelText('Country') as HTMLSelectElement).value).toBe('AU');
  await fillLead({ ...validLead, phone: '(415) 555-0134' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
  expect(await within(dialog).findByText(MESSAGES.invalidPhone)).toBeTruthy();
  await userEvent.selectOptions(within(dialog).getByLabelText('Country'), 'US');
  await waitFor(() => expect(within(dialog).queryByText(MESSAGES.invalidPhone)).toBeNull());
  expect(within(dialog).getByText(/United States \(\+1\) numbers/)).toBeTruthy();
  await solveCaptcha('lead-payload');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
  await within(dialog).findByRole('status', { hidden: true });
  expect(leadPosts).toEqual([expect.objectContaining({ country: 'US', phone: '(415) 555-0134' })]);
});

it('shows the error’s message and keeps what was typed when sending fails', async () => {
  leadReply = () => apiError(429, 'Too many requests. Please try again in a minute.');
  renderPage();
  const dialog = await openLeadForm();
  await fillLead(validLead);
  await solveCaptcha();
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
  expect((await within(dialog).findByRole('alert', { hidden: true })).textContent).toBe(
    'Too many requests. Please try again in a minute.',
  );
  await waitFor(() =>
    expect((screen.getByLabelText('Company') as HTMLInputElement).value).toBe(
      'Green Valley Fitness',
    ),
  );
});
