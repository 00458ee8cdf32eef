import { Route, Routes } from 'react-router-dom';
import { NotFoundPage } from '@grove/web-ui';
import { JoinPage } from './features/join/JoinPage';

/** The referral remote's routes, mounted by the shell at /referral/*. */
export default function ReferralRoutes() {
  return (
    <Routes>
      <Route path=":code" element={<JoinPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
