import { hrefs } from '@grove/contracts';
import { Link, NavLink } from 'react-router-dom';
import { Logo } from './Logo';

/**
 * The public pages' top bar (docs/product.md#public-pages): the logo to /, Pricing, About, Contact,
 * and Log In (or Dashboard when `signedIn`). One markup for both of its renderings: the shell's live
 * `PublicLayout`, and the marketing remote's prerendered pages (apps/marketing/src/prerender), which
 * the live page must replace without moving a box. Its styles are the shell's frame
 * (`shell-topbar` in apps/shell/src/app/layouts/layouts.css), which wraps both.
 */
export function PublicTopBar({ signedIn }: { signedIn: boolean }) {
  return (
    <header className="shell-topbar">
      <Link to="/" className="shell-topbar__brand" aria-label="Grove home">
        <Logo />
      </Link>
      <nav className="shell-topbar__links" aria-label="Main">
        <NavLink to={hrefs.pricing}>Pricing</NavLink>
        <NavLink to={hrefs.about}>About</NavLink>
        <NavLink to={hrefs.contact}>Contact</NavLink>
        {signedIn ? (
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
  );
}
