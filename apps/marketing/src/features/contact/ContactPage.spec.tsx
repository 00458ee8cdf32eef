import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@grove/contracts';
import { HttpResponse, apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { altchaConfig, solveCaptcha } from '../../components/captcha/captcha.testing';
import { ContactPage } from './ContactPage';

// The real widget needs Web Crypto and workers; here the page only has to render its element.
jest.mock('../../components/captcha/load-altcha', () => ({ loadAltcha: async () => undefined }));

/** The bodies of every `POST /api/contact`, in order; `GET /api/captcha` always answers altcha. */
let contactPosts: unknown[] = [];
/** The reply to `POST /api/contact` (a 500 unless a test says otherwise). */
let contactReply: () => Response;

beforeEach(() => {
  contactPosts = [];
  contactReply = () => apiError(500, 'Internal server error');
  server.use(
    altchaConfig(),
    http.post('/contact', async ({ request }) => {
      contactPosts.push(await request.json());
      return contactReply() as never;
    }),
  );
});

/** Renders the page and waits for its form, which loads on demand. */
async function renderPage() {
  renderWithProviders(<ContactPage />);
  await screen.findByLabelText('First Name');
}

/** The message element that `aria-describedby` of the field labelled `label` points to. */
function descriptionOf(label: string): string {
  const ids = screen.getByLabelText(label).getAttribute('aria-describedby') ?? '';
  return ids
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('First Name'), 'Jane');
  await user.type(screen.getByLabelText('Last Name'), 'Citizen');
  await user.type(screen.getByLabelText('Email'), 'jane@mygym.com.au');
  await user.type(screen.getByLabelText('Phone'), '0412 345 678');
  await user.type(screen.getByLabelText('Company Website'), 'mygym.com.au');
  await user.type(screen.getByLabelText('Message'), 'We would like a demo for our two gyms.');
}

describe('ContactPage', () => {
  it("shows each field's own error under it for bad input and sends nothing", async () => {
    const user = userEvent.setup();
    await renderPage();
    await user.type(screen.getByLabelText('First Name'), 'J4ne');
    await user.type(screen.getByLabelText('Email'), 'jane@');
    // A US number is not an Australian one (the country is Australia until chosen).
    await user.type(screen.getByLabelText('Phone'), '(415) 555-0134');
    await user.type(screen.getByLabelText('Company Website'), 'not a site');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText(MESSAGES.captchaRequired)).toBeTruthy();
    expect(descriptionOf('First Name')).toBe('Not a valid name');
    expect(descriptionOf('Last Name')).toBe('Not a valid name');
    expect(descriptionOf('Email')).toBe('Not a valid email address');
    expect(descriptionOf('Phone')).toBe(
      'Not a valid phone number Australia (+61) numbers, or any number in international format.',
    );
    expect(descriptionOf('Company Website')).toBe('Not a valid URL');
    expect(descriptionOf('Message')).toContain(MESSAGES.messageRequired);
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(contactPosts).toEqual([]);

    // Fixing a field clears its message: choosing the number's country fixes the phone.
    await user.selectOptions(screen.getByLabelText('Country'), 'US');
    await user.clear(screen.getByLabelText('Phone'));
    await user.type(screen.getByLabelText('Phone'), '(415) 555-0134');
    await waitFor(() => expect(screen.queryByText('Not a valid phone number')).toBeNull());
  });

  it('counts the message and stops it at 500 characters', async () => {
    const user = userEvent.setup();
    await renderPage();
    const message = screen.getByLabelText('Message') as HTMLTextAreaElement;
    expect(descriptionOf('Message')).toBe('0/500');
    await user.type(message, 'Hello');
    expect(descriptionOf('Message')).toBe('5/500');
    await user.clear(message);
    await user.click(message);
    await user.paste('x'.repeat(620));
    expect(message.value).toHaveLength(500);
    await user.type(message, 'more');
    expect(message.value).toHaveLength(500);
    expect(descriptionOf('Message')).toBe('500/500');
  });

  it('sends the form with the solved captcha, thanks the visitor and resets the form on Close', async () => {
    const user = userEvent.setup();
    contactReply = () => HttpResponse.json({ message: MESSAGES.contactSuccess }, { status: 201 });
    await renderPage();
    await fillValid(user);
    await solveCaptcha('payload-1');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    const dialog = await screen.findByRole('dialog', { name: 'Message sent' });
    expect(within(dialog).getByText(MESSAGES.contactSuccess)).toBeTruthy();
    expect(contactPosts).toEqual([
      {
        firstName: 'Jane',
        lastName: 'Citizen',
        email: 'jane@mygym.com.au',
        country: 'AU',
        phoneNumber: '0412 345 678',
        website: 'mygym.com.au',
        message: 'We would like a demo for our two gyms.',
        captcha: 'payload-1',
      },
    ]);

    await user.click(within(dialog).getByText('Close'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((screen.getByLabelText('First Name') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('');
    // The captcha is fresh too: submitting again asks for it.
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(MESSAGES.captchaRequired)).toBeTruthy();
  });

  it("shows the server's captcha failure for 3 seconds", async () => {
    const user = userEvent.setup();
    contactReply = () => apiError(400, MESSAGES.contactFailed);
    await renderPage();
    await fillValid(user);
    await solveCaptcha();
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.contactFailed);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((screen.getByLabelText('First Name') as HTMLInputElement).value).toBe('Jane');
    await waitFor(() => expect(screen.queryByText(MESSAGES.contactFailed)).toBeNull(), {
      timeout: 4_000,
    });
  });
});
