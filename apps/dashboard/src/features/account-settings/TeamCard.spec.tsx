import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LAST_OWNER_MESSAGE, MESSAGES, STAFF_EMAIL_TAKEN_MESSAGE } from '@grove/contracts';
import type { Schema } from '@grove/api-contract';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { TeamCard } from './TeamCard';

const owner: Schema<'StaffMember'> = {
  id: '0b7e1d2c-3a4f-4b5c-8d6e-7f8091a2b3c4',
  firstName: 'Siobhán',
  lastName: "O'Brien",
  email: 'siobhan@harbour.example',
  role: 'owner',
  lastSignInAt: '2026-11-28T09:00:00.000Z',
  signInPausedSeconds: 0,
  you: true,
};
const desk: Schema<'StaffMember'> = {
  id: '1c8f2e3d-4b5a-4c6d-9e7f-8091a2b3c4d5',
  firstName: 'Renée',
  lastName: 'Dubois',
  email: 'renee@harbour.example',
  role: 'front_desk',
  lastSignInAt: null,
  signInPausedSeconds: 0,
};

/** The fake API's team, and what the card sent. */
let team: Schema<'Team'>;
let sent: string[];
beforeEach(() => {
  sent = [];
  team = { members: [owner, desk], invitations: [] };
  server.use(
    http.get('/team', ({ response }) => response(200).json(team)),
    http.post('/team/invitations', async ({ request, response }) => {
      const body = (await request.json()) as { email: string; role: 'viewer' };
      sent.push(`invite ${body.email} ${body.role}`);
      if (body.email === 'taken@harbour.example') return apiError(409, STAFF_EMAIL_TAKEN_MESSAGE);
      const row = {
        id: '2d9a3f4e-5c6b-4d7e-8f90-a1b2c3d4e5f6',
        email: body.email,
        role: body.role,
        createdAt: '2026-11-28T10:00:00.000Z',
        expiresAt: '2026-12-05T10:00:00.000Z',
      };
      team = { ...team, invitations: [row] };
      return response(201).json(row);
    }),
    http.patch('/team/members/{id}', async ({ params, request, response }) => {
      const body = (await request.json()) as { role: string };
      sent.push(`role ${String(params.id)} ${body.role}`);
      if (params.id === owner.id) return apiError(409, LAST_OWNER_MESSAGE);
      return response(204).empty();
    }),
    http.delete('/team/members/{id}/sign-in-pause', ({ params, response }) => {
      sent.push(`lift ${String(params.id)}`);
      team = {
        ...team,
        members: team.members.map((m) =>
          m.id === params.id ? { ...m, signInPausedSeconds: 0 } : m,
        ),
      };
      return response(204).empty();
    }),
    http.delete('/team/members/{id}', ({ params, response }) => {
      sent.push(`remove ${String(params.id)}`);
      team = { ...team, members: team.members.filter((m) => m.id !== params.id) };
      return response(204).empty();
    }),
  );
});

describe('TeamCard (docs/product.md#staff-accounts)', () => {
  it('lists the team with roles and last sign-in, and invites by email and role', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TeamCard />);
    const list = await screen.findByRole('list', { name: 'Team' });
    expect(within(list).getByText("Siobhán O'Brien")).toBeTruthy();
    expect(within(list).getByText(/renee@harbour.example · never signed in/)).toBeTruthy();
    expect((screen.getByLabelText('Role of Renée Dubois') as HTMLSelectElement).value).toBe(
      'front_desk',
    );

    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText(MESSAGES.invalidEmail)).toBeTruthy();
    expect(sent).toEqual([]);

    await user.type(screen.getByLabelText('Email to invite'), 'zoe@harbour.example');
    await user.selectOptions(screen.getByLabelText('Role'), 'viewer');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to zoe@harbour.example')).toBeTruthy();
    expect(sent).toEqual(['invite zoe@harbour.example viewer']);
    const pending = await screen.findByRole('list', { name: 'Pending invitations' });
    expect(within(pending).getByText('zoe@harbour.example')).toBeTruthy();
  });

  it("shows the API's refusals: an address with an account, the last owner", async () => {
    const user = userEvent.setup();
    renderWithProviders(<TeamCard />);
    await user.type(await screen.findByLabelText('Email to invite'), 'taken@harbour.example');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText(STAFF_EMAIL_TAKEN_MESSAGE)).toBeTruthy();

    await user.selectOptions(screen.getByLabelText("Role of Siobhán O'Brien"), 'manager');
    expect(await screen.findByText(LAST_OWNER_MESSAGE)).toBeTruthy();
  });

  it('changes a role, and removes a member of staff only after confirming', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TeamCard />);
    await user.selectOptions(await screen.findByLabelText('Role of Renée Dubois'), 'manager');
    await waitFor(() => expect(sent).toEqual([`role ${desk.id} manager`]));

    const row = screen.getByText('Renée Dubois').closest('li') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(sent).toEqual([`role ${desk.id} manager`]);
    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    await user.click(await screen.findByRole('button', { name: 'Remove Renée Dubois' }));
    await waitFor(() => expect(screen.queryByText('Renée Dubois')).toBeNull());
    expect(sent).toEqual([`role ${desk.id} manager`, `remove ${desk.id}`]);
  });

  it('marks a member of staff whose sign-in is paused, and lets them sign in again', async () => {
    team = { ...team, members: [owner, { ...desk, signInPausedSeconds: 840 }] };
    const user = userEvent.setup();
    renderWithProviders(<TeamCard />);
    const row = (await screen.findByText('Renée Dubois')).closest('li') as HTMLElement;
    expect(within(row).getByText('Sign-in paused')).toBeTruthy();
    expect(within(row).getByText(/paused for about 14 min/)).toBeTruthy();
    expect(
      within(screen.getByText("Siobhán O'Brien").closest('li') as HTMLElement).queryByText(
        'Sign-in paused',
      ),
    ).toBeNull();
    await user.click(within(row).getByRole('button', { name: 'Let them sign in' }));
    expect(await screen.findByText('Renée Dubois can sign in again')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Sign-in paused')).toBeNull());
    expect(sent).toEqual([`lift ${desk.id}`]);
  });
});
