import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { newReferralCode } from './referral/referrals/referral-code';

const DAY_MS = 86_400_000;

/** A demo member as seeded (`DemoSeeder`): its id, prices (cents), tree and join time. */
export interface DemoMember {
  id: string;
  priceCents: number;
  discountCents: number;
  referredById: string | null;
  joinedAt: Date;
}

interface Fact {
  kind: string;
  occurred_at: string;
  member_id: string | null;
  referrer_id: string | null;
  referral_link_id: string | null;
  prospect_id: string | null;
  source: string | null;
  event_key: string;
  /** The share channel of a `prospect_joined` fact (`JOIN_CHANNELS`); absent on other kinds. */
  channel?: string;
}

interface PriceLine {
  member_id: string;
  occurred_at: string;
  reason: string;
  old_price_cents: number | null;
  new_price_cents: number;
  membership_price_cents: number;
  branch_id: string | null;
  event_key: string;
}

const FACT_COLUMNS =
  'kind text, occurred_at timestamptz, member_id uuid, referrer_id uuid, referral_link_id uuid, prospect_id uuid, source text, event_key text, channel text';
const PRICE_COLUMNS =
  'member_id uuid, occurred_at timestamptz, reason text, old_price_cents int, new_price_cents int, membership_price_cents int, branch_id uuid, event_key text';
const VISIT_COLUMNS = 'referral_link_id uuid, day date, visits int, channel text';

/**
 * The demo's share channels (issue 33's `?via=`), picked in turn by a visit's or a join's index:
 * WhatsApp most, then the link copied, direct, SMS, email, the QR code and the share sheet.
 */
const DEMO_CHANNELS = [
  'whatsapp',
  'copy',
  'whatsapp',
  'direct',
  'sms',
  'whatsapp',
  'email',
  'qr',
  'direct',
  'share',
] as const;
const demoChannel = (index: number): string => DEMO_CHANNELS[index % DEMO_CHANNELS.length];

/**
 * Inserts `records` (objects keyed by the column names of `columns`, "name type, …") into
 * `table` of business `businessId` in one statement (`jsonb_to_recordset`).
 */
async function insertRecords(
  manager: EntityManager,
  businessId: string,
  table: string,
  columns: string,
  records: object[],
): Promise<void> {
  const names = columns.split(', ').map((column) => column.split(' ')[0]);
  await manager.query(
    `INSERT INTO ${table} (business_id, ${names.join(', ')})
     SELECT $1, ${names.join(', ')} FROM jsonb_to_recordset($2::jsonb) AS r(${columns})`,
    [businessId, JSON.stringify(records)],
  );
}

/** How many members who have since left the demo gym appear in its history. */
const PAST_MEMBERS = 36;

/**
 * A year of history for the demo business, so the analytics screen is alive on first start:
 * every demo member's referral link (a live row in `referral_links`) and its join-page visits,
 * the joins and approvals that made the branches (visits and joins spread over the share
 * channels, `DEMO_CHANNELS`), `member_added`/`branch_added` facts and the
 * price ledger (each tree's price falls by its discount per branch when the branch joins), plus
 * {@link PAST_MEMBERS} members who joined and left during the year (facts and ledger only: a
 * removed member keeps its history). Deterministic (no randomness but the ids and codes); event
 * keys follow `FactKind` of `membership/lifecycle/lifecycle.repository.ts`.
 * @param now the seeding moment; every fact is before it
 */
export async function seedDemoHistory(
  manager: EntityManager,
  businessId: string,
  members: DemoMember[],
  now: Date,
): Promise<void> {
  const iso = (date: Date) => date.toISOString();
  const facts: Fact[] = [];
  const lines: PriceLine[] = [];
  const fact = (kind: string, at: Date, key: string, ids: Partial<Fact> = {}) =>
    facts.push({
      kind,
      occurred_at: iso(at),
      member_id: null,
      referrer_id: null,
      referral_link_id: null,
      prospect_id: null,
      source: kind.startsWith('link_') ? null : 'manual',
      event_key: key,
      ...ids,
    });

  // Links: every current member shares one from three days after joining.
  const links = new Map<string, string>();
  const visits: { referral_link_id: string; day: string; visits: number; channel: string }[] = [];
  let joins = 0;
  for (const [index, member] of members.entries()) {
    const linkId = randomUUID();
    const createdAt = new Date(member.joinedAt.getTime() + 3 * DAY_MS);
    links.set(member.id, linkId);
    await manager.query(
      `INSERT INTO referral_links (id, business_id, member_id, code, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [linkId, businessId, member.id, newReferralCode(), createdAt],
    );
    fact('link_created', createdAt, `link_created:${linkId}`, {
      member_id: member.id,
      referral_link_id: linkId,
    });
    for (let day = createdAt.getTime(); day < now.getTime(); day += (3 + (index % 4)) * DAY_MS)
      visits.push({
        referral_link_id: linkId,
        day: iso(new Date(day)).slice(0, 10),
        visits: 1 + (((day / DAY_MS + index) % 5) | 0),
        channel: demoChannel(visits.length),
      });
  }

  // Who joined: the current members, then those who left since (ended before now).
  const joined: (DemoMember & { endedAt: Date | null })[] = members.map((m) => ({
    ...m,
    endedAt: null,
  }));
  const trees = members.filter((m) => m.referredById === null);
  for (let k = 0; k < PAST_MEMBERS; k++) {
    const joinedAt = new Date(now.getTime() - (360 - k * 9) * DAY_MS);
    const referred = k % 3 === 0;
    const stay = referred ? 110 + k * 5 : 25 + k * 3;
    const endedAt = new Date(Math.min(joinedAt.getTime() + stay * DAY_MS, now.getTime() - DAY_MS));
    joined.push({
      id: randomUUID(),
      priceCents: 5900 + (k % 4) * 2000,
      discountCents: 500,
      referredById: referred ? trees[k % trees.length].id : null,
      joinedAt,
      endedAt,
    });
  }

  // Each member's own ledger, and each tree's price changes as branches join and leave.
  const treeEvents = new Map<string, { at: Date; delta: 1 | -1; branch: string }[]>();
  for (const member of joined) {
    const joinedAt = member.joinedAt;
    fact('member_added', joinedAt, `member_added:${member.id}`, { member_id: member.id });
    lines.push({
      member_id: member.id,
      occurred_at: iso(joinedAt),
      reason: 'member_added',
      old_price_cents: null,
      new_price_cents: member.priceCents,
      membership_price_cents: member.priceCents,
      branch_id: null,
      event_key: `price:${member.id}:member_added:${member.id}`,
    });
    if (member.referredById) {
      const prospect = randomUUID();
      const referrer = member.referredById;
      fact(
        'prospect_joined',
        new Date(joinedAt.getTime() - 2 * DAY_MS),
        `prospect_joined:${prospect}`,
        {
          referrer_id: referrer,
          referral_link_id: links.get(referrer) ?? null,
          prospect_id: prospect,
          channel: demoChannel(joins++),
        },
      );
      fact('prospect_approved', joinedAt, `prospect_approved:${prospect}`, {
        member_id: member.id,
        referrer_id: referrer,
        prospect_id: prospect,
        source: 'approval',
      });
      fact('branch_added', joinedAt, `branch_added:${member.id}`, {
        member_id: member.id,
        referrer_id: referrer,
        source: 'approval',
      });
      const events = treeEvents.get(referrer) ?? [];
      events.push({ at: joinedAt, delta: 1, branch: member.id });
      if (member.endedAt) events.push({ at: member.endedAt, delta: -1, branch: member.id });
      treeEvents.set(referrer, events);
    }
    if (member.endedAt) {
      const key = `member_ended:${member.id}:${iso(member.endedAt)}`;
      fact('member_ended', member.endedAt, key, {
        member_id: member.id,
        referrer_id: member.referredById,
      });
      lines.push({
        member_id: member.id,
        occurred_at: iso(member.endedAt),
        reason: 'membership_ended',
        old_price_cents: member.priceCents,
        new_price_cents: 0,
        membership_price_cents: member.priceCents,
        branch_id: null,
        event_key: `price:${member.id}:${key}`,
      });
    }
  }
  for (const tree of members) {
    let branches = 0;
    let price = tree.priceCents;
    const events = (treeEvents.get(tree.id) ?? []).sort((a, b) => a.at.getTime() - b.at.getTime());
    for (const event of events) {
      branches += event.delta;
      const next = Math.max(0, tree.priceCents - tree.discountCents * branches);
      const reason = event.delta > 0 ? 'branch_added' : 'branch_removed';
      lines.push({
        member_id: tree.id,
        occurred_at: iso(event.at),
        reason,
        old_price_cents: price,
        new_price_cents: next,
        membership_price_cents: tree.priceCents,
        branch_id: event.branch,
        event_key: `price:${tree.id}:${reason}:${event.branch}`,
      });
      price = next;
    }
  }
  // A few friends who joined and were not approved (yet).
  for (let week = 0; week < 50; week += 3) {
    const tree = trees[week % trees.length];
    const prospect = randomUUID();
    fact(
      'prospect_joined',
      new Date(now.getTime() - (350 - week * 7) * DAY_MS),
      `prospect_joined:${prospect}`,
      {
        referrer_id: tree.id,
        referral_link_id: links.get(tree.id) ?? null,
        prospect_id: prospect,
        channel: demoChannel(joins++),
      },
    );
  }

  // In time order, so ids follow time (the ledger of a member is read in id order).
  const byTime = (a: { occurred_at: string }, b: { occurred_at: string }) =>
    a.occurred_at.localeCompare(b.occurred_at);
  await insertRecords(manager, businessId, 'lifecycle_facts', FACT_COLUMNS, facts.sort(byTime));
  await insertRecords(manager, businessId, 'price_changes', PRICE_COLUMNS, lines.sort(byTime));
  await insertRecords(manager, businessId, 'join_page_visits', VISIT_COLUMNS, visits);
}
