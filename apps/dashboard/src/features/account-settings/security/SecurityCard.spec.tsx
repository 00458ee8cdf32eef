import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SECOND_FACTOR_MESSAGES } from '@grove/contracts';
import type { Schema } from '@grove/api-contract';
import { sessionKey } from '@grove/web-data-access';
import {
  apiError,
  createTestQueryClient,
  http,
  renderWithProviders,
  server,
} from '@grove/web-testing';
import { SecurityCard } from './SecurityCard';

const CODES = [
  '7hk2m-q9x4t',
  'a3c5e-g7j9k',
  'm2n4p-q6r8s',
  't1v3w-x5y7z',
  '0a2b4-c6d8e',
  'f1g3h-j5k7m',
  'n9p1q-r3s5t',
  'v7w9x-y1z3a',
  'b5c7d-e9f1g',
  'h3j5k-m7n9p',
];

/** The fake API's state, and what the card sent. */
let status: Schema<'SecondFactorStatus'>;
let sent: unknown[];
beforeEach(() => {
  sent = [];
  status = {
    totp: false,
    passkeys: 0,
    hasFactor: false,
    recoveryCodesLeft: 0,
    businessRequires: false,
    passwordSet: true,
  };
  server.use(
    http.get('/account/second-factor', ({ response }) => response(200).json(status)),
    http.post('/account/second-factor/totp', ({ response }) =>
      response(201).json({
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        uri: 'otpauth://totp/Grove:zoe%40harbour.example?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Grove',
        qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
      }),
    ),
    http.post('/account/second-factor/totp/confirm', async ({ request, response }) => {
      const body = (await request.json()) as { code: string };
      sent.push(body);
      if (body.code !== '492039') return apiError(400, SECOND_FACTOR_MESSAGES.codeWrong);
      status = {
        totp: true,
        passkeys: 0,
        hasFactor: true,
        recoveryCodesLeft: 10,
        businessRequires: false,
        passwordSet: true,
      };
      return response(200).json({ recoveryCodes: CODES });
    }),
    http.put('/settings/second-factor', async ({ request, response }) => {
      const body = (await request.json()) as { required: boolean };
      sent.push(body);
      status = { ...status, businessRequires: body.required };
      return response(200).json(status);
    }),
    http.post('/account/second-factor/totp/disable', async ({ request, response }) => {
      const body = (await request.json()) as { code?: string; password?: string };
      sent.push(body);
      if (body.password !== 'my long harbour passphrase' && body.code !== CODES[0])
        return apiError(400, SECOND_FACTOR_MESSAGES.disableProofWrong);
      status = {
        totp: false,
        passkeys: 0,
        hasFactor: false,
        recoveryCodesLeft: 0,
        businessRequires: false,
        passwordSet: true,
      };
      return response(204).empty();
    }),
  );
});

describe('SecurityCard (docs/product.md#second-factor)', () => {
  it('sets up an authenticator app: QR code and key, a code confirms it, the recovery codes shown once', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />);
    await user.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    expect(
      (await screen.findByAltText('QR code to scan with your authenticator app')).getAttribute(
        'src',
      ),
    ).toMatch(/^data:image\/svg\+xml;utf8,%3Csvg/);
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');

    await user.type(screen.getByLabelText('Code from your app'), '4920');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText(SECOND_FACTOR_MESSAGES.codeInvalid)).toBeTruthy();
    expect(sent).toEqual([]);
    await user.clear(screen.getByLabelText('Code from your app'));
    await user.type(screen.getByLabelText('Code from your app'), '111111');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText(SECOND_FACTOR_MESSAGES.codeWrong)).toBeTruthy();
    await user.type(screen.getByLabelText('Code from your app'), '492039');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText(/10 recovery codes left/)).toBeTruthy();
    expect(screen.queryByText(CODES[0])).toBeNull();
  });

  it('turns the app off with the password or a recovery code, and says when neither is right', async () => {
    status = {
      totp: true,
      passkeys: 0,
      hasFactor: true,
      recoveryCodesLeft: 1,
      businessRequires: false,
      passwordSet: true,
    };
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />);
    expect(await screen.findByText(/1 recovery code left/)).toBeTruthy();
    const field = () =>
      screen.getByLabelText('To turn it off, enter a code, a recovery code or your password');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(SECOND_FACTOR_MESSAGES.disableNeedsProof)).toBeTruthy();
    await user.type(field(), 'a wrong passphrase');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(SECOND_FACTOR_MESSAGES.disableProofWrong)).toBeTruthy();
    await user.type(field(), CODES[0]);
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('button', { name: 'Set up an authenticator app' })).toBeTruthy();
    expect(sent).toEqual([{ password: 'a wrong passphrase' }, { code: CODES[0] }]);
  });

  it('shows an error when the state cannot be loaded', async () => {
    server.use(http.get('/account/second-factor', () => apiError(503, 'Grove is busy')));
    renderWithProviders(<SecurityCard />);
    expect(await screen.findByText('Grove is busy')).toBeTruthy();
  });

  it('lets an owner with an app require a second factor of every member of staff', async () => {
    status = {
      totp: true,
      passkeys: 0,
      hasFactor: true,
      recoveryCodesLeft: 10,
      businessRequires: false,
      passwordSet: true,
    };
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />);
    const box = await screen.findByRole('checkbox', {
      name: 'Require a second factor of every member of staff',
    });
    await user.click(box);
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(true));
    expect(sent).toEqual([{ required: true }]);
  });

  it('tells an owner without an app to set one up first, and hides the requirement from other roles', async () => {
    const { unmount } = renderWithProviders(<SecurityCard />);
    const box = (await screen.findByRole('checkbox')) as HTMLInputElement;
    expect(box.disabled).toBe(true);
    expect(screen.getByText(SECOND_FACTOR_MESSAGES.requireOwnFirst)).toBeTruthy();
    unmount();
    const client = createTestQueryClient();
    client.setQueryData(sessionKey, { role: 'front_desk' });
    renderWithProviders(<SecurityCard setupRequired />, { client });
    expect(await screen.findByText(SECOND_FACTOR_MESSAGES.setupRequired)).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});
