// The classes two features share first; each feature's own stylesheet comes with its component.
import './dashboard.css';
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { NotFoundPage, Spinner } from '@grove/web-ui';
import { BranchesPage } from './features/branches/BranchesPage';
import { MembersCsvCard } from './features/members-csv/MembersCsvCard';
import { GettingStartedCard } from './features/getting-started/GettingStartedCard';
import { ProspectiveMembersPage } from './features/prospective-members/ProspectiveMembersPage';
import { MemberProfilePage } from './features/member-profile/MemberProfilePage';
import { BillingBanner } from './features/account-settings/BillingBanner';
import { ActivityPage } from './features/activity/ActivityPage';
import { SenderBanner } from './features/account-settings/data-rights/SenderBanner';

// Account Settings (and the phone rules' metadata it needs) loads only when opened.
const AccountSettingsPage = lazy(() =>
  import('./features/account-settings/AccountSettingsPage').then((module) => ({
    default: module.AccountSettingsPage,
  })),
);

// Analytics (and its chart library, loaded with its first chart) loads only when opened.
const AnalyticsPage = lazy(() =>
  import('./features/analytics/AnalyticsPage').then((module) => ({
    default: module.AnalyticsPage,
  })),
);

/**
 * The dashboard remote's routes, mounted by the shell at /dashboard/* (docs/product.md#screens),
 * under the billing banner while the business owes Grove (docs/product.md#billing).
 */
export default function DashboardRoutes() {
  return (
    <>
      <BillingBanner />
      <SenderBanner />
      <Routes>
        <Route
          index
          element={<BranchesPage intro={<GettingStartedCard />} tools={<MembersCsvCard />} />}
        />
        <Route
          path="branches"
          element={<BranchesPage intro={<GettingStartedCard />} tools={<MembersCsvCard />} />}
        />
        <Route path="prospective-members" element={<ProspectiveMembersPage />} />
        <Route path="members/:id" element={<MemberProfilePage />} />
        <Route path="activity" element={<ActivityPage />} />
        <Route
          path="account-settings/*"
          element={
            <Suspense fallback={<Spinner />}>
              <AccountSettingsPage />
            </Suspense>
          }
        />
        <Route
          path="analytics"
          element={
            <Suspense fallback={<Spinner />}>
              <AnalyticsPage />
            </Suspense>
          }
        />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </>
  );
}
