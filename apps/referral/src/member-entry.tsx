import { Route, Routes } from 'react-router-dom';
import { NotFoundPage } from '@grove/web-ui';
import { MemberPage } from './features/member/MemberPage';
import { UnsubscribePage } from './features/member/UnsubscribePage';

/** The member page's routes (issue 15), mounted by the shell at /member/*. */
export default function MemberRoutes() {
  return (
    <Routes>
      <Route index element={<MemberPage />} />
      <Route path="unsubscribe/:token" element={<UnsubscribePage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
