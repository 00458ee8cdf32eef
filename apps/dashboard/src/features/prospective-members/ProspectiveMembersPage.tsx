import { Card, EmptyState, PageHeader } from '@grove/web-ui';

/** SPEC §2: the Prospective Members empty text. */
export const NO_PROSPECTS = 'You have no more prospective members to review. Please come back later.';

/**
 * Prospective Members (SPEC §2). Friends join through referral links, which arrive with the
 * referral issue; until then there is never anyone to review.
 */
export function ProspectiveMembersPage() {
  return (
    <>
      <PageHeader title="Prospective Members" description="Friends who joined through a referral link, waiting for you to approve them." />
      <Card>
        <EmptyState message={NO_PROSPECTS} />
      </Card>
    </>
  );
}
