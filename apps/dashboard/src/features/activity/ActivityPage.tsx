import { Card, PageHeader } from '@grove/web-ui';
import { ActivityLog } from '../../components/activity/ActivityLog';

/**
 * Activity at `/dashboard/activity` (issue 34 item 2, docs/product.md#audit-log): every change to
 * members, prices, branches, friends, settings, imports, integrations and bills, who made it and
 * when; owners and managers only (the sidebar hides it from others, the API answers 403).
 */
export function ActivityPage() {
  return (
    <>
      <PageHeader title="Activity" />
      <Card>
        <ActivityLog />
      </Card>
    </>
  );
}
