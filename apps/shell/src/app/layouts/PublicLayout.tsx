import { Outlet } from 'react-router-dom';
import { useSession } from '@grove/web-data-access';
import { PublicTopBar } from '@grove/web-ui';
import './layouts.css';

/** The public pages' frame (docs/product.md#public-pages): the top bar, then the page. */
export function PublicLayout() {
  const session = useSession();
  return (
    <div className="shell-public">
      <PublicTopBar signedIn={Boolean(session.data)} />
      <Outlet />
    </div>
  );
}
