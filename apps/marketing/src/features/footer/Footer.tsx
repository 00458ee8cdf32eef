import { Link } from 'react-router-dom';
import { Logo } from '@grove/web-ui';

/** The shared footer (SPEC §2): call to action, social and support links, privacy, copyright. */
export function Footer() {
  return (
    <footer className="mk-footer">
      <div className="mk-footer__cta">
        <h2>Get started with Grove today</h2>
        <Link to="/signup" className="g-btn g-btn--primary">
          Try Free
        </Link>
      </div>
      <div className="mk-footer__row">
        <Logo size={24} />
        <nav aria-label="Footer" className="mk-footer__links">
          <a href="https://www.instagram.com/" rel="noopener noreferrer">Instagram</a>
          <a href="https://www.linkedin.com/" rel="noopener noreferrer">LinkedIn</a>
          <a href="mailto:support@grove.app">Support</a>
          <Link to="/privacyPolicy">Privacy Policy</Link>
        </nav>
      </div>
      <p className="mk-footer__copy">© 2023 Grove. All rights reserved.</p>
    </footer>
  );
}
