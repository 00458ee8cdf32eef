import { Card, PageHeader } from '@grove/web-ui';

/**
 * Mindbody setup (SPEC §2, §4). The staged wizard arrives with the Mindbody integration issue;
 * until then the screen says so plainly instead of offering a form that cannot work.
 */
export function MindbodySetupPage() {
  return (
    <>
      <PageHeader title="Mindbody Setup" description="Connect your Mindbody account to import members and keep referral discounts in sync." />
      <Card>
        <h2 className="integrations-title">Mindbody connection is on its way</h2>
        <p className="g-muted">
          Soon you will enter your Mindbody staff username, password and site ID here, import your members and let Grove
          apply referral discounts to their real bills. Until then, add your members by hand on the Branches screen.
        </p>
      </Card>
    </>
  );
}
