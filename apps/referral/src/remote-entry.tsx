import { Route, Routes } from 'react-router-dom';
import { NotFoundPage } from '@grove/web-ui';
import { ServerRenderedJoinPage } from './features/join/ServerRenderedJoinPage';

/** The referral remote's routes, mounted by the shell at /referral/*. */
export default function ReferralRoutes() {
  return (
    <Routes>
      <Route path=":code" element={<ServerRenderedJoinPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
