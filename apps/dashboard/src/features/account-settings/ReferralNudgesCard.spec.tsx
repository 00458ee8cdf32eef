import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { REFERRAL_NUDGE_MESSAGES, REFERRAL_NUDGES_OFF } from '@grove/contracts';
import type { Schema } from '@grove/api-contract';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { ReferralNudgesCard } from './ReferralNudgesCard';

/** A fake API holding the business's nudge settings. */
let stored: Schema<'ReferralNudgeSettingsReply'>;
const puts: unknown[] = [];
const previews: string[] = [];
let visitsAvailable = false;
let noMember = false;
/** What the weekly visit checks cost where Mindbody is connected (0 and 0 elsewhere). */
const NO_CHECKS = { visitChecksPerWeek: 0, mindbodyMembers: 0 };
let checks = NO_CHECKS;
beforeEach(() => {
  visitsAvailable = false;
  checks = NO_CHECKS;
  stored = { ...REFERRAL_NUDGES_OFF, visitsAvailable, ...checks };
  puts.length = 0;
  previews.length = 0;
  noMember = false;
  server.use(
    http.get('/settings/referral-nudges', ({ response }) => response(200).json(stored)),
    http.put('/settings/referral-nudges', async ({ request, response }) => {
      const body = (await request.json()) as Schema<'ReferralNudgeSettings'>;
      puts.push(body);
      stored = { ...body, visitsAvailable, ...checks };
      return response(200).json(stored);
    }),
    http.get('/settings/referral-nudges/preview', ({ request, response }) => {
      const query = new URL(request.url).searchParams;
      const kind = query.get('kind') as 'invite' | 'reminder' | 'summary';
      previews.push(query.has('visits') ? `${kind}:${query.get('visits')}` : kind);
      if (noMember) return apiError(404, REFERRAL_NUDGE_MESSAGES.noExample);
      return response(200).json({
        kind,
        memberName: "Siobhán O'Brien",
        subject: "Know someone who'd like Peak Fitness?",
        html: '<p>Hi Siobhán</p>',
        text: 'Hi Siobhán',
      });
    }),
  );
});

const inviteBox = () =>
  screen.getByRole('checkbox', { name: 'Invite members to refer' }) as HTMLInputElement;

describe('ReferralNudgesCard (docs/product.md#referral-nudges)', () => {
  it('switches the 30-day invitation on only after its preview, and saves it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ReferralNudgesCard />);
    await screen.findByRole('checkbox', { name: 'Invite members to refer' });
    expect(inviteBox().disabled).toBe(true);
    expect(screen.getAllByText('Preview this email to switch it on.')).toHaveLength(3);

    await user.click(screen.getAllByRole('button', { name: 'Preview email' })[0] as HTMLElement);
    expect(await screen.findByText("Subject: Know someone who'd like Peak Fitness?")).toBeTruthy();
    expect(screen.getByText("The email Siobhán O'Brien would get")).toBeTruthy();
    expect(previews).toEqual(['invite']);
    expect(inviteBox().disabled).toBe(false);

    await user.click(inviteBox());
    expect((screen.getByLabelText('Days after they joined') as HTMLInputElement).value).toBe('30');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(puts).toEqual([
      {
        inviteAfterDays: 30,
        inviteAfterVisits: null,
        reminderAfterDays: null,
        monthlySummary: false,
      },
    ]);
  });

  it("refuses days outside the range with the API's message, saving nothing", async () => {
    stored = {
      inviteAfterDays: 30,
      reminderAfterDays: null,
      monthlySummary: false,
      visitsAvailable: false,
      ...NO_CHECKS,
    };
    const user = userEvent.setup();
    renderWithProviders(<ReferralNudgesCard />);
    const days = (await screen.findByLabelText('Days after they joined')) as HTMLInputElement;
    await waitFor(() => expect(days.value).toBe('30'));
    expect(inviteBox().checked).toBe(true);
    await user.clear(days);
    await user.type(days, '400');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(REFERRAL_NUDGE_MESSAGES.inviteDays)).toBeTruthy();
    expect(puts).toEqual([]);
  });

  it('says why there is no preview when the business has no member with an email', async () => {
    noMember = true;
    const user = userEvent.setup();
    renderWithProviders(<ReferralNudgesCard />);
    await screen.findByRole('checkbox', { name: 'Invite members to refer' });
    await user.click(screen.getAllByRole('button', { name: 'Preview email' })[2] as HTMLElement);
    expect(await screen.findByText(REFERRAL_NUDGE_MESSAGES.noExample)).toBeTruthy();
  });

  it('offers the invitation after the Nth visit only where Mindbody is connected, saying why otherwise', async () => {
    renderWithProviders(<ReferralNudgesCard />);
    const visits = (await screen.findByRole('radio', {
      name: 'after their Nth visit (visits from Mindbody)',
    })) as HTMLInputElement;
    expect(visits.disabled).toBe(true);
    expect(screen.getByText(REFERRAL_NUDGE_MESSAGES.visitsNeedMindbody)).toBeTruthy();
    expect(screen.queryByText(/Grove checks each Mindbody member/)).toBeNull();
  });

  it('says beside the choice what the weekly visit checks cost in Mindbody calls, for this business', async () => {
    visitsAvailable = true;
    checks = { visitChecksPerWeek: 1_840, mindbodyMembers: 2_000 };
    stored = { ...REFERRAL_NUDGES_OFF, visitsAvailable, ...checks };
    renderWithProviders(<ReferralNudgesCard />);
    const visits = await screen.findByRole('radio', {
      name: 'after their Nth visit (visits from Mindbody)',
    });
    const cost =
      'Grove checks each Mindbody member’s visits once a week: about 1,840 Mindbody calls a week for your 2,000 members.';
    expect(screen.getByText(cost)).toBeTruthy();
    expect(visits.getAttribute('aria-describedby')).toBe('nudge-invite-visits-cost');
  });

  it('switches the invitation after the 5th visit on only after its own preview, and saves it', async () => {
    visitsAvailable = true;
    checks = { visitChecksPerWeek: 1, mindbodyMembers: 1 };
    stored = { ...REFERRAL_NUDGES_OFF, visitsAvailable, ...checks };
    const user = userEvent.setup();
    renderWithProviders(<ReferralNudgesCard />);
    await user.click(
      await screen.findByRole('radio', { name: 'after their Nth visit (visits from Mindbody)' }),
    );
    expect(screen.queryByText(REFERRAL_NUDGE_MESSAGES.visitsNeedMindbody)).toBeNull();
    expect(
      screen.getByText(
        'Grove checks each Mindbody member’s visits once a week: about 1 Mindbody call a week for your 1 member.',
      ),
    ).toBeTruthy();
    expect((screen.getByLabelText('After their visit number') as HTMLInputElement).value).toBe('5');
    expect(inviteBox().disabled).toBe(true);
    await user.click(screen.getAllByRole('button', { name: 'Preview email' })[0] as HTMLElement);
    expect(await screen.findByText("Subject: Know someone who'd like Peak Fitness?")).toBeTruthy();
    expect(previews).toEqual(['invite:5']);
    await user.click(inviteBox());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(puts).toEqual([
      {
        inviteAfterDays: null,
        inviteAfterVisits: 5,
        reminderAfterDays: null,
        monthlySummary: false,
      },
    ]);
  });
});
