import { hrefs } from '@grove/contracts';
import { Link, NavLink, Outlet } from 'react-router-dom';
import { useSession } from '@grove/web-data-access';
import { Logo } from '@grove/web-ui';
import './layouts.css';

/** Public top bar (docs/product.md#public-pages): logo to /, Pricing, About, Contact and a Log In button. */
export function PublicLayout() {
  const session = useSession();
  return (
    <div className="shell-public">
      <header className="shell-topbar">
        <Link to="/" className="shell-topbar__brand" aria-label="Grove home">
          <Logo />
        </Link>
        <nav className="shell-topbar__links" aria-label="Main">
          <NavLink to={hrefs.pricing}>Pricing</NavLink>
          <NavLink to={hrefs.about}>About</NavLink>
          <NavLink to={hrefs.contact}>Contact</NavLink>
          {session.data ? (
            <Link to={hrefs.dashboard} className="g-btn g-btn--primary g-btn--sm">
              Dashboard
            </Link>
          ) : (
            <Link to={hrefs.login} className="g-btn g-btn--primary g-btn--sm">
              Log In
            </Link>
          )}
        </nav>
      </header>
      <Outlet />
    </div>
  );
}
