import type { DataSource } from 'typeorm';
import * as platformDataSource from './platform/database/data-source';
import { BusinessEntity } from './platform/auth/business.entity';
import { SessionEntity } from './platform/auth/session.entity';
import { UserEntity } from './platform/auth/user.entity';
import { MemberEntity } from './membership/members/member.entity';
import { MindbodyIntegrationEntity } from './integrations/mindbody/persistence/mindbody-integration.entity';
import { ProspectEntity } from './referral/prospects/prospect.entity';
import { ReferralLinkEntity } from './referral/referrals/referral-link.entity';
import { InitialSchema1763683200000 } from './platform/database/migrations/1763683200000-InitialSchema';
import { BusinessMemberCount1763769600000 } from './platform/database/migrations/1763769600000-BusinessMemberCount';
import { ReferralLinksAndProspects1763856000000 } from './platform/database/migrations/1763856000000-ReferralLinksAndProspects';
import { ContactSupportLeads1764028800000 } from './platform/database/migrations/1764028800000-ContactSupportLeads';
import { MindbodyIntegrations1764115200000 } from './platform/database/migrations/1764115200000-MindbodyIntegrations';
import { MindbodyPricedAt1764201600000 } from './platform/database/migrations/1764201600000-MindbodyPricedAt';
import { JoinFlags1795460494289 } from './platform/database/migrations/1795460494289-JoinFlags';
import { ThrottleCounters1795460524976 } from './platform/database/migrations/1795460524976-ThrottleCounters';
import { SessionFamilies1795460545382 } from './platform/database/migrations/1795460545382-SessionFamilies';
import { BusinessLedSearchIndex1795461063207 } from './platform/database/migrations/1795461063207-BusinessLedSearchIndex';
import { LifecycleFacts1795470615350 } from './platform/database/migrations/1795470615350-LifecycleFacts';
import { LinksForEveryone1795470827431 } from './platform/database/migrations/1795470827431-LinksForEveryone';
import { FraudSignals1795470868763 } from './platform/database/migrations/1795470868763-FraudSignals';
import { MemberImports1795470869787 } from './platform/database/migrations/1795470869787-MemberImports';
import { MemberEmailsAndAccess1795470874647 } from './platform/database/migrations/1795470874647-MemberEmailsAndAccess';
import { AnalyticsVersionIndexes1795470887755 } from './platform/database/migrations/1795470887755-AnalyticsVersionIndexes';
import { MemberEmailSettings1795471647602 } from './platform/database/migrations/1795471647602-MemberEmailSettings';
import { LifecycleBackfill1795471666404 } from './platform/database/migrations/1795471666404-LifecycleBackfill';
import { ProspectAutoApprove1795472904475 } from './platform/database/migrations/1795472904475-ProspectAutoApprove';
import { BranchQualification1795481534511 } from './platform/database/migrations/1795481534511-BranchQualification';
import { BranchCountingRule1795481825526 } from './platform/database/migrations/1795481825526-BranchCountingRule';
import { ReferralEmailRuns1795482010116 } from './platform/database/migrations/1795482010116-ReferralEmailRuns';
import { MemberSearchKeys1795482825286 } from './platform/database/migrations/1795482825286-MemberSearchKeys';
import { BusinessProspectCount1795482902020 } from './platform/database/migrations/1795482902020-BusinessProspectCount';
import { MemberSearchVersion1795492664065 } from './platform/database/migrations/1795492664065-MemberSearchVersion';
import { MindbodyUniqueId1795500000000 } from './platform/database/migrations/1795500000000-MindbodyUniqueId';
import { BranchesOfMindbodyMembers1795500000001 } from './platform/database/migrations/1795500000001-BranchesOfMindbodyMembers';
import { MindbodyAccountSubscription1795500000002 } from './platform/database/migrations/1795500000002-MindbodyAccountSubscription';
import { MindbodyNextCharge1795500000003 } from './platform/database/migrations/1795500000003-MindbodyNextCharge';
import { MindbodyContractsStale1795500000004 } from './platform/database/migrations/1795500000004-MindbodyContractsStale';
import { MindbodyCallCounts1795500000005 } from './platform/database/migrations/1795500000005-MindbodyCallCounts';
import { MindbodySubscriptionHealth1795500000006 } from './platform/database/migrations/1795500000006-MindbodySubscriptionHealth';
import { PasswordResetTokens1795503217409 } from './platform/database/migrations/1795503217409-PasswordResetTokens';
import { BusinessCountry1795503384512 } from './platform/database/migrations/1795503384512-BusinessCountry';
import { EmailAddressRule1795560000000 } from './platform/database/migrations/1795560000000-EmailAddressRule';
import { JoinPageVisitors1795560100000 } from './platform/database/migrations/1795560100000-JoinPageVisitors';
import { BusinessTimeZone1795560711000 } from './platform/database/migrations/1795560711000-BusinessTimeZone';
import { MindbodyBillsWritten1795570300000 } from './platform/database/migrations/1795570300000-MindbodyBillsWritten';
import { MemberDefaults1795571000000 } from './platform/database/migrations/1795571000000-MemberDefaults';
import { AutoReferralLinksOnForNewBusinesses1795571200000 } from './platform/database/migrations/1795571200000-AutoReferralLinksOnForNewBusinesses';
import { ProspectOutcomes1795571300000 } from './platform/database/migrations/1795571300000-ProspectOutcomes';
import { MemberImportJobs1795571500000 } from './platform/database/migrations/1795571500000-MemberImportJobs';
import { MemberImportsCompressed1795571700000 } from './platform/database/migrations/1795571700000-MemberImportsCompressed';
import { GroveBilling1795571800000 } from './platform/database/migrations/1795571800000-GroveBilling';
import { MindbodyPendingBills1795571900000 } from './platform/database/migrations/1795571900000-MindbodyPendingBills';
import { ShareMessage1795572000000 } from './platform/database/migrations/1795572000000-ShareMessage';
import { JoinChannel1795572100000 } from './platform/database/migrations/1795572100000-JoinChannel';
import { StaffAccounts1795573000000 } from './platform/database/migrations/1795573000000-StaffAccounts';
import { WelcomeOffer1795574000000 } from './platform/database/migrations/1795574000000-WelcomeOffer';
import { StripeMemberBilling1795575000000 } from './platform/database/migrations/1795575000000-StripeMemberBilling';
import { DataRights1795584000000 } from './platform/database/migrations/1795584000000-DataRights';
import { ReferredByNote1795576000000 } from './platform/database/migrations/1795576000000-ReferredByNote';
import { StripeMemberWebhooks1795580000000 } from './platform/database/migrations/1795580000000-StripeMemberWebhooks';
import { AuditLog1795582000000 } from './platform/database/migrations/1795582000000-AuditLog';
import { SecondFactor1795583000000 } from './platform/database/migrations/1795583000000-SecondFactor';
import { ReferralNudges1795586000000 } from './platform/database/migrations/1795586000000-ReferralNudges';
import { Passkeys1795590000000 } from './platform/database/migrations/1795590000000-Passkeys';
import { ReferrerReward1795594000000 } from './platform/database/migrations/1795594000000-ReferrerReward';
import { BranchCountingTriggerInline1795595000000 } from './platform/database/migrations/1795595000000-BranchCountingTriggerInline';
import { StripeEndedMembers1795600000000 } from './platform/database/migrations/1795600000000-StripeEndedMembers';
import { MindbodyAddClient1795601000000 } from './platform/database/migrations/1795601000000-MindbodyAddClient';
import { ReferrerRewardsOwed1795602000000 } from './platform/database/migrations/1795602000000-ReferrerRewardsOwed';
import { MemberImportsHeartbeat1795603000000 } from './platform/database/migrations/1795603000000-MemberImportsHeartbeat';
import { OutdatedPasswordMark1795604000000 } from './platform/database/migrations/1795604000000-OutdatedPasswordMark';
import { StripeFactSource1795605000000 } from './platform/database/migrations/1795605000000-StripeFactSource';
import { RewardYearInTimeZone1795606000000 } from './platform/database/migrations/1795606000000-RewardYearInTimeZone';
import { MemberEmailSending1795607000000 } from './platform/database/migrations/1795607000000-MemberEmailSending';
import { InvitationPasskeys1795608000000 } from './platform/database/migrations/1795608000000-InvitationPasskeys';
import { AuditLogErasure1795609000000 } from './platform/database/migrations/1795609000000-AuditLogErasure';
import { MemberEmailsSendingIndex1795610000000 } from './platform/database/migrations/1795610000000-MemberEmailsSendingIndex';
import { BackgroundRunHeartbeat1795611000000 } from './platform/database/migrations/1795611000000-BackgroundRunHeartbeat';
import { ChosenPassword1795620000000 } from './platform/database/migrations/1795620000000-ChosenPassword';
import { StripeMemberRuns1795630000000 } from './platform/database/migrations/1795630000000-StripeMemberRuns';
import { BusinessJoinPage1795640000000 } from './platform/database/migrations/1795640000000-BusinessJoinPage';
import { RewardCapLocksReferrer1795641000000 } from './platform/database/migrations/1795641000000-RewardCapLocksReferrer';
import { RewardsInStripe1795650000000 } from './platform/database/migrations/1795650000000-RewardsInStripe';
import { CountingBranchesIndex1795660000000 } from './platform/database/migrations/1795660000000-CountingBranchesIndex';
import { JoinPageChannel1795680000000 } from './platform/database/migrations/1795680000000-JoinPageChannel';
import { MailDeliveries1795685000000 } from './platform/database/migrations/1795685000000-MailDeliveries';
import { PendingSignups1795700000000 } from './platform/database/migrations/1795700000000-PendingSignups';
import { ReferralInviteAfterVisits1795730000000 } from './platform/database/migrations/1795730000000-ReferralInviteAfterVisits';
import { VisitChecksWeekly1795740000000 } from './platform/database/migrations/1795740000000-VisitChecksWeekly';

/** Every entity, listed explicitly (a bundle cannot glob). */
export const ENTITIES = [
  BusinessEntity,
  UserEntity,
  SessionEntity,
  MemberEntity,
  ReferralLinkEntity,
  ProspectEntity,
  MindbodyIntegrationEntity,
];

/** Every migration in order, listed explicitly (a bundle cannot glob). */
export const MIGRATIONS = [
  InitialSchema1763683200000,
  BusinessMemberCount1763769600000,
  ReferralLinksAndProspects1763856000000,
  ContactSupportLeads1764028800000,
  MindbodyIntegrations1764115200000,
  MindbodyPricedAt1764201600000,
  JoinFlags1795460494289,
  ThrottleCounters1795460524976,
  SessionFamilies1795460545382,
  BusinessLedSearchIndex1795461063207,
  LifecycleFacts1795470615350,
  LinksForEveryone1795470827431,
  FraudSignals1795470868763,
  MemberImports1795470869787,
  MemberEmailsAndAccess1795470874647,
  AnalyticsVersionIndexes1795470887755,
  MemberEmailSettings1795471647602,
  LifecycleBackfill1795471666404,
  ProspectAutoApprove1795472904475,
  BranchQualification1795481534511,
  BranchCountingRule1795481825526,
  ReferralEmailRuns1795482010116,
  MemberSearchKeys1795482825286,
  BusinessProspectCount1795482902020,
  MemberSearchVersion1795492664065,
  MindbodyUniqueId1795500000000,
  BranchesOfMindbodyMembers1795500000001,
  MindbodyAccountSubscription1795500000002,
  MindbodyNextCharge1795500000003,
  MindbodyContractsStale1795500000004,
  MindbodyCallCounts1795500000005,
  MindbodySubscriptionHealth1795500000006,
  PasswordResetTokens1795503217409,
  BusinessCountry1795503384512,
  EmailAddressRule1795560000000,
  JoinPageVisitors1795560100000,
  BusinessTimeZone1795560711000,
  MindbodyBillsWritten1795570300000,
  MemberDefaults1795571000000,
  AutoReferralLinksOnForNewBusinesses1795571200000,
  ProspectOutcomes1795571300000,
  MemberImportJobs1795571500000,
  MemberImportsCompressed1795571700000,
  GroveBilling1795571800000,
  MindbodyPendingBills1795571900000,
  ShareMessage1795572000000,
  JoinChannel1795572100000,
  StaffAccounts1795573000000,
  WelcomeOffer1795574000000,
  StripeMemberBilling1795575000000,
  ReferredByNote1795576000000,
  StripeMemberWebhooks1795580000000,
  AuditLog1795582000000,
  SecondFactor1795583000000,
  DataRights1795584000000,
  ReferralNudges1795586000000,
  Passkeys1795590000000,
  ReferrerReward1795594000000,
  BranchCountingTriggerInline1795595000000,
  StripeEndedMembers1795600000000,
  MindbodyAddClient1795601000000,
  ReferrerRewardsOwed1795602000000,
  MemberImportsHeartbeat1795603000000,
  OutdatedPasswordMark1795604000000,
  StripeFactSource1795605000000,
  RewardYearInTimeZone1795606000000,
  MemberEmailSending1795607000000,
  InvitationPasskeys1795608000000,
  AuditLogErasure1795609000000,
  MemberEmailsSendingIndex1795610000000,
  BackgroundRunHeartbeat1795611000000,
  ChosenPassword1795620000000,
  StripeMemberRuns1795630000000,
  BusinessJoinPage1795640000000,
  RewardCapLocksReferrer1795641000000,
  RewardsInStripe1795650000000,
  CountingBranchesIndex1795660000000,
  JoinPageChannel1795680000000,
  MailDeliveries1795685000000,
  PendingSignups1795700000000,
  ReferralInviteAfterVisits1795730000000,
  VisitChecksWeekly1795740000000,
];

/** Grove's database: every entity and every migration (`DatabaseModule.forRoot` runs them). */
export const DATABASE_SCHEMA: platformDataSource.DatabaseSchema = {
  entities: ENTITIES,
  migrations: MIGRATIONS,
};

export { MIGRATIONS_LOCK_KEY } from './platform/database/data-source';

/**
 * Runs Grove's pending migrations (see `runMigrations` in platform/database/data-source.ts).
 * @param url a `postgres://` connection URL
 * @param connectMs how long connecting may take (ms; 0 = no limit)
 * @throws what a migration throws, or the connect error
 */
export function runMigrations(url: string, connectMs = 0): Promise<void> {
  return platformDataSource.runMigrations(DATABASE_SCHEMA, url, connectMs);
}

/**
 * A standalone (not yet initialised) DataSource over Grove's schema, for tests and scripts.
 * @param url a `postgres://` connection URL
 */
export function createDataSource(url: string): DataSource {
  return platformDataSource.createDataSource(DATABASE_SCHEMA, url);
}
