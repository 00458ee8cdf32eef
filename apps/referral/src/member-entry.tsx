import { Route, Routes } from 'react-router-dom';
import { NotFoundPage } from '@grove/web-ui';
import { UnsubscribePage } from './features/member/UnsubscribePage';

/**
 * The member's single-page routes (issue 15), mounted by the shell at /member/*: the unsubscribe
 * page. The member page `/member` itself is rendered by the API (docs/architecture.md#member-page).
 */
export default function MemberRoutes() {
  return (
    <Routes>
      <Route path="unsubscribe/:token" element={<UnsubscribePage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
