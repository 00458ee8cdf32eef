import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_SHARE_MESSAGE, SHARE_MESSAGE_MESSAGES } from '@grove/contracts';
import type { Schema } from '@grove/api-contract';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { ShareMessageCard } from './ShareMessageCard';

/** A fake API holding the business's share message. */
let stored: Schema<'ShareMessageSettings'>;
const puts: unknown[] = [];
/** The business's welcome offer for a friend (none unless a test sets one). */
let offer: Schema<'WelcomeOffer'>;
beforeEach(() => {
  stored = { message: DEFAULT_SHARE_MESSAGE };
  puts.length = 0;
  offer = { kind: 'none', amountCents: null, percent: null, months: null, text: null };
  server.use(
    http.get('/settings/welcome-offer', ({ response }) => response(200).json(offer)),
    http.get('/settings/share-message', ({ response }) => response(200).json(stored)),
    http.put('/settings/share-message', async ({ request, response }) => {
      const body = (await request.json()) as Schema<'ShareMessageSettings'>;
      puts.push(body);
      stored = { message: body.message };
      return response(200).json(stored);
    }),
  );
});

const link = `${window.location.origin}/referral/Xy7pQ2`;
const renderCard = () =>
  renderWithProviders(<ShareMessageCard businessName="O'Brien's Boxing & Fitness" />);
const preview = () => screen.getByTestId('share-preview').textContent;

describe('ShareMessageCard (docs/product.md#share-message)', () => {
  it("fills {offer} with the business's welcome offer, as the Welcome offer card words it", async () => {
    offer = { kind: 'free', amountCents: null, percent: null, months: 1, text: null };
    renderCard();
    const box = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe(DEFAULT_SHARE_MESSAGE));
    fireEvent.change(box, { target: { value: 'Train with me! {offer} at {gym}: {link}' } });
    await waitFor(() =>
      expect(preview()).toBe(
        `Train with me! Your first month free at O'Brien's Boxing & Fitness: ${link}`,
      ),
    );
  });

  it('previews the message as a member would send it, updating as the owner types, and saves it', async () => {
    const user = userEvent.setup();
    renderCard();
    const box = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe(DEFAULT_SHARE_MESSAGE));
    expect(preview()).toBe(
      `Sam here! Come and train with me at O'Brien's Boxing & Fitness. Here's my link: ${link}`,
    );

    await user.clear(box);
    // userEvent reads { as a key descriptor: paste the placeholders instead.
    fireEvent.change(box, { target: { value: '  Siobhán says: {gym} <3 {link}  ' } });
    expect(preview()).toBe(`Siobhán says: O'Brien's Boxing & Fitness <3 ${link}`);
    expect(screen.getByText('29/500')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Save message' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(puts).toEqual([{ message: 'Siobhán says: {gym} <3 {link}' }]);
    await waitFor(() => expect(box.value).toBe('Siobhán says: {gym} <3 {link}'));
  });

  it("refuses a message without {link} with the API's message, saving nothing, and 'Use the default' puts it back", async () => {
    const user = userEvent.setup();
    renderCard();
    const box = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe(DEFAULT_SHARE_MESSAGE));
    fireEvent.change(box, { target: { value: 'Come to {gym} with me' } });
    expect(preview()).toBe("Come to O'Brien's Boxing & Fitness with me");
    await user.click(screen.getByRole('button', { name: 'Save message' }));
    expect(await screen.findByText(SHARE_MESSAGE_MESSAGES.needsLink)).toBeTruthy();
    expect(puts).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Use the default' }));
    expect(box.value).toBe(DEFAULT_SHARE_MESSAGE);
    expect(preview()).toContain('Sam here!');
  });

  it("shows the API's refusal under the field", async () => {
    const user = userEvent.setup();
    server.use(
      http.put('/settings/share-message', () =>
        apiError(400, SHARE_MESSAGE_MESSAGES.tooLong, { message: SHARE_MESSAGE_MESSAGES.tooLong }),
      ),
    );
    renderCard();
    const box = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe(DEFAULT_SHARE_MESSAGE));
    await user.click(screen.getByRole('button', { name: 'Save message' }));
    expect((await screen.findAllByText(SHARE_MESSAGE_MESSAGES.tooLong)).length).toBeGreaterThan(0);
    expect(screen.queryByText('Saved')).toBeNull();
  });
});
