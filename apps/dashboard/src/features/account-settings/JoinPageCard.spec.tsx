import { fireEvent, screen, waitFor } from '@testing-library/react';
import { BUSINESS_JOIN_TEXTS, type StaffRole } from '@grove/contracts';
import { apiUrl, type Schema } from '@grove/api-contract';
import { sessionKey } from '@grove/web-data-access';
import {
  apiError,
  createTestQueryClient,
  http,
  HttpResponse,
  renderWithProviders,
  server,
} from '@grove/web-testing';
import { JoinPageCard } from './JoinPageCard';

const URL = 'https://grove.example.com/join/0123456789abcdef0123456789abcdef';
const NEW_URL = 'https://grove.example.com/join/fedcba9876543210fedcba9876543210';

const renderAs = (role: StaffRole) => {
  const client = createTestQueryClient();
  client.setQueryData(sessionKey, { role } as Schema<'SessionUser'>);
  renderWithProviders(<JoinPageCard />, { client });
};

describe('JoinPageCard', () => {
  it("shows the business's join page link with Copy and its QR code", async () => {
    server.use(http.get('/join-page', () => HttpResponse.json({ url: URL })));
    renderWithProviders(<JoinPageCard />);
    const link = await screen.findByRole('link', { name: URL });
    expect(link.getAttribute('href')).toBe(URL);
    expect(screen.getByRole('heading', { name: BUSINESS_JOIN_TEXTS.ownerTitle })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    const qr = screen.getByRole('link', { name: 'QR (SVG)' });
    expect(qr.getAttribute('href')).toBe(apiUrl('/join-page/qr.svg'));
  });

  it('says what failed when the link cannot be read', async () => {
    server.use(http.get('/join-page', () => apiError(503, 'Grove is not reachable')));
    renderWithProviders(<JoinPageCard />);
    expect((await screen.findByRole('alert')).textContent).toContain('Grove is not reachable');
  });

  it('replaces the link after the owner confirms that printed QR codes stop working', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.get('/join-page', () => HttpResponse.json({ url: URL })),
      http.post('/join-page/new-link', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ url: NEW_URL });
      }),
    );
    renderAs('owner');
    fireEvent.click(await screen.findByRole('button', { name: BUSINESS_JOIN_TEXTS.newLink }));
    const dialog = await screen.findByRole('dialog', { name: BUSINESS_JOIN_TEXTS.newLinkTitle });
    expect(dialog.textContent).toContain('QR codes you printed');
    // Cancel writes nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(bodies).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: BUSINESS_JOIN_TEXTS.newLink }));
    fireEvent.click(
      await screen.findByRole('button', { name: BUSINESS_JOIN_TEXTS.newLinkConfirm }),
    );
    expect((await screen.findByRole('status')).textContent).toBe(BUSINESS_JOIN_TEXTS.newLinkDone);
    expect(screen.getByRole('link', { name: NEW_URL })).toBeTruthy();
    expect(screen.queryByRole('link', { name: URL })).toBeNull();
    expect(bodies).toEqual([{ confirm: true }]);
  });

  it('keeps the dialog open with the reason when the replacement fails', async () => {
    server.use(
      http.get('/join-page', () => HttpResponse.json({ url: URL })),
      http.post('/join-page/new-link', () => apiError(503, 'Grove is not reachable')),
    );
    renderAs('manager');
    fireEvent.click(await screen.findByRole('button', { name: BUSINESS_JOIN_TEXTS.newLink }));
    fireEvent.click(
      await screen.findByRole('button', { name: BUSINESS_JOIN_TEXTS.newLinkConfirm }),
    );
    await waitFor(() =>
      expect(screen.getByRole('dialog').textContent).toContain('Grove is not reachable'),
    );
    expect(screen.getByRole('link', { name: URL })).toBeTruthy();
  });

  it('hides New link from front desk and viewers', async () => {
    server.use(http.get('/join-page', () => HttpResponse.json({ url: URL })));
    renderAs('front_desk');
    await screen.findByRole('link', { name: URL });
    expect(screen.queryByRole('button', { name: BUSINESS_JOIN_TEXTS.newLink })).toBeNull();
  });
});
