import { fireEvent, screen, waitFor } from '@testing-library/react';
import { EMAIL_VERIFIED_MESSAGE, VERIFICATION_INVALID_MESSAGE } from '@grove/contracts';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { VerifyEmailPage } from './VerifyEmailPage';

/** The tokens the fake API was sent. */
let sent: string[] = [];
beforeEach(() => {
  sent = [];
  server.use(
    http.post('/auth/verify-email', async ({ request, response }) => {
      const { token } = (await request.json()) as { token: string };
      sent.push(token);
      return token === 'good-token'
        ? response(200).json({ message: EMAIL_VERIFIED_MESSAGE })
        : apiError(400, VERIFICATION_INVALID_MESSAGE);
    }),
  );
});
const open = (hash: string) => {
  window.history.replaceState(null, '', `/verify-email${hash}`);
  renderWithProviders(<VerifyEmailPage />);
};

describe('VerifyEmailPage (docs/product.md#verified-senders)', () => {
  const press = () => fireEvent.click(screen.getByRole('button', { name: 'Verify my email' }));

  it("posts nothing on load (a link scanner running the page does not use the link); 'Verify my email' sends the token once and says the email is verified; the token leaves the address bar", async () => {
    open('#token=good-token');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/verify-email');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([]);
    press();
    expect(await screen.findByText(EMAIL_VERIFIED_MESSAGE)).toBeTruthy();
    expect(sent).toEqual(['good-token']);
    expect(screen.queryByRole('button', { name: 'Verify my email' })).toBeNull();
  });

  it('says a used or expired link is no longer valid', async () => {
    open('#token=used-token');
    press();
    expect(await screen.findByText(VERIFICATION_INVALID_MESSAGE)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Verify my email' })).toBeNull();
  });

  it('says so without asking the API when the link has no token', async () => {
    open('');
    expect(screen.getByText(VERIFICATION_INVALID_MESSAGE)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Verify my email' })).toBeNull();
    await waitFor(() => expect(sent).toEqual([]));
  });
});
