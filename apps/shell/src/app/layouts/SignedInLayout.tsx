import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { Logo } from '@grove/web-ui';
import { AccountMenu } from './AccountMenu';
import { TreeSearch } from './TreeSearch';

/** Support address the sidebar's Contact Support button writes to (until the issue form lands). */
export const SUPPORT_EMAIL = 'support@grove.app';

const startsWith = (prefix: string) => (pathname: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

const nav = [
  { to: '/dashboard', label: 'Branches', isActive: (p: string) => ['/dashboard', '/dashboard/branches'].includes(p.replace(/\/$/, '')) },
  { to: '/dashboard/prospective-members', label: 'Prospective Members', isActive: startsWith('/dashboard/prospective-members') },
  { to: '/referral-links', label: 'Referral Links', isActive: startsWith('/referral-links') },
  { to: '/mindbody-setup', label: 'Mindbody Setup', isActive: startsWith('/mindbody-setup') },
];

/** Signed-in frame (SPEC §2): top bar with search and account menu, sidebar, then the screen. */
export function SignedInLayout() {
  const { pathname } = useLocation();
  return (
    <div className="shell-app">
      <header className="shell-topbar shell-topbar--app">
        <NavLink to="/dashboard" className="shell-topbar__brand" aria-label="Grove dashboard">
          <Logo />
        </NavLink>
        <TreeSearch />
        <AccountMenu />
      </header>
      <div className="shell-app__body">
        <nav className="shell-sidebar" aria-label="Dashboard">
          <ul>
            {nav.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  className={() => (item.isActive(pathname) ? 'shell-sidebar__link is-active' : 'shell-sidebar__link')}
                  aria-current={item.isActive(pathname) ? 'page' : undefined}
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <a className="g-btn g-btn--secondary shell-sidebar__support" href={`mailto:${SUPPORT_EMAIL}?subject=Grove%20support`}>
            Contact Support
          </a>
        </nav>
        <main className="shell-app__main" id="main">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
