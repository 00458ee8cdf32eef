import { hrefs } from '@grove/contracts';
import { useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { Button, Logo } from '@grove/web-ui';
import { useRoleMay } from '@grove/web-data-access';
import { IssueFormModal } from '../../features/support/IssueFormModal';
import { AccountMenu } from './AccountMenu';
import { TreeSearch } from './TreeSearch';
import './layouts.css';

const startsWith = (prefix: string) => (pathname: string) =>
  pathname === prefix || pathname.startsWith(`${prefix}/`);

const nav = [
  {
    to: hrefs.dashboard,
    label: 'Branches',
    isActive: (p: string) =>
      ([hrefs.dashboard, hrefs.branches] as string[]).includes(p.replace(/\/$/, '')),
  },
  {
    to: hrefs.prospectiveMembers,
    label: 'Prospective Members',
    isActive: startsWith(hrefs.prospectiveMembers),
  },
  {
    to: hrefs.referralLinks,
    label: 'Referral Links',
    isActive: startsWith(hrefs.referralLinks),
  },
  {
    to: hrefs.analytics,
    label: 'Analytics',
    isActive: startsWith(hrefs.analytics),
  },
  {
    to: hrefs.activity,
    label: 'Activity',
    isActive: startsWith(hrefs.activity),
    // The audit log is the owners' and managers' (docs/product.md#audit-log).
    capability: 'audit' as const,
  },
  {
    to: hrefs.mindbodySetup,
    label: 'Mindbody Setup',
    isActive: startsWith(hrefs.mindbodySetup),
    // Integrations are the owners' (docs/product.md#staff-accounts).
    capability: 'integrations' as const,
  },
  {
    to: hrefs.stripeSetup,
    label: 'Stripe Billing',
    isActive: startsWith(hrefs.stripeSetup),
    capability: 'integrations' as const,
  },
];

/**
 * Signed-in frame (docs/product.md#signed-in-frame): top bar with search and account menu, sidebar (whose 'Contact
 * Support' button opens the issue form), then the screen. On a narrow screen (≤ 820 px, `layouts.css`)
 * the sidebar is closed until the top bar's 'Menu' button opens it, one link a line; following a
 * link closes it again.
 */
export function SignedInLayout() {
  const { pathname } = useLocation();
  const may = { integrations: useRoleMay('integrations'), audit: useRoleMay('audit') };
  const [supportOpen, setSupportOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);
  // A new screen opens at its top (a member's profile opened from far down the trees list used
  // to open scrolled to the bottom of its ledger); a page of the same screen (?page=2) keeps its place.
  useEffect(() => {
    // A block: Chromium's scrollTo returns a promise, which React would take for a cleanup.
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <div className="shell-app">
      <header className="shell-topbar shell-topbar--app">
        <NavLink to={hrefs.dashboard} className="shell-topbar__brand" aria-label="Grove dashboard">
          <Logo />
        </NavLink>
        <TreeSearch />
        <Button
          variant="secondary"
          size="sm"
          className="shell-menu-button"
          aria-controls="shell-sidebar"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
            <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" />
          </svg>
          Menu
        </Button>
        <AccountMenu />
      </header>
      <div className="shell-app__body">
        <nav
          id="shell-sidebar"
          className={menuOpen ? 'shell-sidebar is-open' : 'shell-sidebar'}
          aria-label="Dashboard"
        >
          <ul>
            {nav
              .filter((item) => !('capability' in item) || !item.capability || may[item.capability])
              .map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    className={() =>
                      item.isActive(pathname)
                        ? 'shell-sidebar__link is-active'
                        : 'shell-sidebar__link'
                    }
                    aria-current={item.isActive(pathname) ? 'page' : undefined}
                  >
                    {item.label}
                  </NavLink>
                </li>
              ))}
          </ul>
          <Button
            variant="secondary"
            className="shell-sidebar__support"
            onClick={() => {
              setMenuOpen(false);
              setSupportOpen(true);
            }}
          >
            Contact Support
          </Button>
        </nav>
        <IssueFormModal open={supportOpen} onClose={() => setSupportOpen(false)} />
        <main className="shell-app__main" id="main">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
