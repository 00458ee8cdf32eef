import { screen } from '@testing-library/react';
import { BUSINESS_JOIN_TEXTS } from '@grove/contracts';
import { apiUrl } from '@grove/api-contract';
import { apiError, http, HttpResponse, renderWithProviders, server } from '@grove/web-testing';
import { JoinPageCard } from './JoinPageCard';

const URL = 'https://grove.example.com/join/0123456789abcdef0123456789abcdef';

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
});
