import { Route, Routes } from 'react-router-dom';
import { NotFoundPage } from '@grove/web-ui';
import { BranchesPage } from './features/branches/BranchesPage';
import { ProspectiveMembersPage } from './features/prospective-members/ProspectiveMembersPage';
import './dashboard.css';

/** The dashboard remote's routes, mounted by the shell at /dashboard/* (SPEC §2). */
export default function DashboardRoutes() {
  return (
    <Routes>
      <Route index element={<BranchesPage />} />
      <Route path="branches" element={<BranchesPage />} />
      <Route path="prospective-members" element={<ProspectiveMembersPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
