import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { runTransaction } from './platform/database/transaction';
import { emailKey } from '@grove/contracts';
import { hashPassword } from './platform/auth/auth-tokens';
import { BusinessEntity } from './platform/auth/business.entity';
import { UserEntity } from './platform/auth/user.entity';
import { MemberEntity } from './membership/members/member.entity';
import { AppConfig } from './app-config';
import { seedDemoHistory, type DemoMember } from './demo-history';

/** The demo owner's login, printed at start-up when the demo is seeded. */
export const DEMO_LOGIN = { email: 'demo@grove.local', password: 'grove-demo-1234' } as const;

/**
 * Demo trees: name, price and discount per referral in cents, which earlier tree referred them,
 * and when they joined (days before the seed; by default four weeks apart from 350 days ago).
 */
const DEMO_MEMBERS: ReadonlyArray<{
  name: string;
  priceCents: number;
  discountCents: number;
  referredBy?: string;
  joinedDaysAgo?: number;
}> = [
  { name: 'Olivia Bennett', priceCents: 8900, discountCents: 1000 },
  { name: 'Liam Nguyen', priceCents: 12900, discountCents: 1500 },
  { name: 'Charlotte Davies', priceCents: 5900, discountCents: 500 },
  { name: 'Noah Patel', priceCents: 3900, discountCents: 500 },
  { name: 'Amelia Walker', priceCents: 9900, discountCents: 1200, referredBy: 'Olivia Bennett' },
  { name: 'Jack Thompson', priceCents: 6900, discountCents: 800, referredBy: 'Olivia Bennett' },
  { name: 'Isla Robinson', priceCents: 7900, discountCents: 1000, referredBy: 'Liam Nguyen' },
  { name: 'William Harris', priceCents: 11900, discountCents: 1500 },
  { name: 'Mia Kelly', priceCents: 4900, discountCents: 500, referredBy: 'Olivia Bennett' },
  { name: 'Oliver Chen', priceCents: 8900, discountCents: 1000, referredBy: 'Amelia Walker' },
  { name: 'Grace Murphy', priceCents: 6900, discountCents: 700 },
  { name: 'Henry Wilson', priceCents: 10900, discountCents: 1200, referredBy: 'Liam Nguyen' },
  // Friends approved within the last 30 days, so Analytics' default period has approvals and top referrers.
  {
    name: 'Sophie Anderson',
    priceCents: 7900,
    discountCents: 800,
    referredBy: 'Grace Murphy',
    joinedDaysAgo: 20,
  },
  {
    name: 'Lucas Martin',
    priceCents: 8900,
    discountCents: 1000,
    referredBy: 'Olivia Bennett',
    joinedDaysAgo: 11,
  },
  {
    name: 'Ella Brown',
    priceCents: 5900,
    discountCents: 500,
    referredBy: 'Henry Wilson',
    joinedDaysAgo: 4,
  },
];

/**
 * Seeds the demo business "Green Valley Fitness" when `GROVE_SEED_DEMO=true` and no business
 * exists yet: its 15 members joined over the past year (the last three friends approved within
 * the last 30 days), with a year of referral history (`seedDemoHistory`) for the analytics screen. Idempotent: runs under an advisory lock and does nothing once any business exists.
 */
@Injectable()
export class DemoSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger('DemoSeed');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.seedDemo) return;
    const seeded = await this.seed();
    if (seeded) {
      this.logger.log(
        `Demo business "Green Valley Fitness" created. Log in with ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`,
      );
    }
  }

  /** @returns true when the demo was created now, false when businesses already existed */
  async seed(): Promise<boolean> {
    const passwordHash = await hashPassword(DEMO_LOGIN.password);
    return runTransaction(this.dataSource, async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('grove-demo-seed'))`);
      if ((await manager.getRepository(BusinessEntity).count()) > 0) return false;
      const business = await manager.getRepository(BusinessEntity).save({
        name: 'Green Valley Fitness',
        website: 'https://greenvalleyfitness.com.au',
        phone: '0412 345 678',
      });
      await manager.getRepository(UserEntity).save({
        businessId: business.id,
        email: DEMO_LOGIN.email,
        firstName: 'Dana',
        lastName: 'Green',
        passwordHash,
      });
      await this.seedMembers(manager, business.id);
      return true;
    });
  }

  private async seedMembers(manager: EntityManager, businessId: string): Promise<void> {
    const ids = new Map<string, string>();
    const members = manager.getRepository(MemberEntity);
    const now = new Date();
    const seeded: DemoMember[] = [];
    for (const [index, member] of DEMO_MEMBERS.entries()) {
      const email = `${member.name.toLowerCase().replace(' ', '.')}@example.com`;
      const referredById = member.referredBy ? (ids.get(member.referredBy) ?? null) : null;
      // Joined over the past year, in list order, so the default order is the story's order.
      const daysAgo = member.joinedDaysAgo ?? 350 - index * 28;
      const joinedAt = new Date(now.getTime() - daysAgo * 86_400_000);
      const saved = await members.save({
        businessId,
        name: member.name,
        email,
        emailKey: emailKey(email),
        membershipPriceCents: member.priceCents,
        discountCents: member.discountCents,
        referredById,
        mindbodyClientId: null,
        createdAt: joinedAt,
      });
      ids.set(member.name, saved.id);
      seeded.push({
        id: saved.id,
        priceCents: member.priceCents,
        discountCents: member.discountCents,
        referredById,
        joinedAt,
      });
    }
    await seedDemoHistory(manager, businessId, seeded, now);
  }
}
