import { useEffect, useRef } from 'react';
import { Navigate, NavLink, Route, Routes, useLocation } from 'react-router-dom';
import { hrefs, type AccountSettingsRouteState } from '@grove/contracts';
import { Alert, PageHeader, Spinner } from '@grove/web-ui';
import { useAccount } from './api/account';
import { AccountDetailsCard } from './AccountDetailsCard';
import { useSettingsSections } from './settings-sections';
import './account-settings.css';

/**
 * Where an address written before Account Settings had sections points now: the billing emails and
 * Checkout's return of earlier versions (`#billing`) and the checklist's `#member-defaults`.
 */
const OLD_ANCHORS: Record<string, string> = {
  '#billing': hrefs.billing,
  '#member-defaults': hrefs.memberDefaults,
};

/** Your details: the signed-in person's name and the business's details (`GET/PATCH /api/account`). */
function DetailsSection() {
  const account = useAccount();
  if (account.isPending) return <Spinner label="Loading your details…" />;
  if (account.isError) return <Alert>{account.error.message}</Alert>;
  return <AccountDetailsCard account={account.data} />;
}

/**
 * Account Settings (issue 5, opened from the account menu; sections since issue 34 item 5,
 * docs/product.md#account-settings): a navigation of the sections the role may open
 * (`useSettingsSections`), each at its own address under /dashboard/account-settings, beside (on a
 * phone, above) the open section's cards. After a login whose password no longer meets Grove's
 * rule, or one whose business requires a second factor they lack, the shell sends the person to
 * Security (`AccountSettingsRouteState`), whose cards say why; the same state on this page's first
 * address opens Security too. An address of a section the role may
 * not open (or none) shows Your details; an old `#billing` / `#member-defaults` address opens its
 * section.
 */
export function AccountSettingsPage() {
  const location = useLocation();
  const state = location.state as AccountSettingsRouteState | null;
  const notices = {
    passwordChangeRequired: state?.passwordChangeRequired === true,
    secondFactorSetupRequired: state?.secondFactorSetupRequired === true,
  };
  const sentToSecurity = notices.passwordChangeRequired || notices.secondFactorSetupRequired;
  const sections = useSettingsSections(<DetailsSection />, notices);
  // On a phone the sections are a row of tabs wider than the screen: keep the open one in view.
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    nav.current
      ?.querySelector('[aria-current="page"]')
      ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [location.pathname]);
  const oldAnchor =
    location.pathname.replace(/\/$/, '') === hrefs.accountSettings && OLD_ANCHORS[location.hash];
  if (oldAnchor) {
    const [path, hash] = oldAnchor.split('#');
    return <Navigate to={{ pathname: path, search: location.search, hash }} replace />;
  }
  return (
    <div className="dash-account">
      <PageHeader
        title="Account Settings"
        description="Keep your details up to date and your account secure."
      />
      <div className="dash-account__layout">
        <nav className="dash-account__nav" aria-label="Settings" ref={nav}>
          <ul>
            {sections.map((section) => (
              <li key={section.path}>
                <NavLink to={section.to} end className="dash-account__nav-link">
                  {section.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="dash-account__section">
          <Routes>
            {sections.map((section) =>
              section.path === '' ? (
                <Route
                  key="index"
                  index
                  element={
                    sentToSecurity ? (
                      <Navigate to={hrefs.accountSecurity} state={state} replace />
                    ) : (
                      section.element
                    )
                  }
                />
              ) : (
                <Route key={section.path} path={section.path} element={section.element} />
              ),
            )}
            <Route path="*" element={<Navigate to={hrefs.accountSettings} replace />} />
          </Routes>
        </div>
      </div>
    </div>
  );
}
