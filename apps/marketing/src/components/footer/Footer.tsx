import { hrefs } from '@grove/contracts';
import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '@grove/web-ui';
import { FacebookIcon, InstagramIcon, LinkedInIcon, type IconProps } from '../icons/Icons';
import './footer.css';

interface SocialLink {
  name: string;
  href: string;
  Icon: ComponentType<IconProps>;
}

const socialLinks: SocialLink[] = [
  { name: 'Instagram', href: 'https://www.instagram.com/', Icon: InstagramIcon },
  { name: 'Facebook', href: 'https://www.facebook.com/', Icon: FacebookIcon },
  { name: 'LinkedIn', href: 'https://www.linkedin.com/', Icon: LinkedInIcon },
];

/**
 * The shared footer (docs/product.md#public-pages): the call to action 'Get started with Grove today' with 'Try Free'
 * (→ /signup), the site's links, a support link (→ /contact), the privacy policy, social links
 * (each named for screen readers) and the copyright line of the current year (docs/product.md#public-pages).
 */
export function Footer() {
  return (
    <footer className="mk-footer">
      <div className="mk-footer__inner">
        <div className="mk-footer__cta">
          <div>
            <h2>Get started with Grove today</h2>
            <p>Free until your first 2 members arrive through Grove.</p>
          </div>
          <Link to={hrefs.signup} className="g-btn mk-btn--light mk-btn--lg">
            Try Free
          </Link>
        </div>
        <div className="mk-footer__row">
          <div className="mk-footer__brand">
            <Logo size={26} />
            <p>Referral and retention for gyms and membership businesses.</p>
          </div>
          <nav aria-label="Footer" className="mk-footer__nav">
            <ul>
              <li>
                <Link to={hrefs.pricing}>Pricing</Link>
              </li>
              <li>
                <Link to={hrefs.about}>About</Link>
              </li>
              <li>
                <Link to={hrefs.contact}>Support</Link>
              </li>
              <li>
                <Link to={hrefs.privacyPolicy}>Privacy Policy</Link>
              </li>
            </ul>
          </nav>
          <ul className="mk-footer__social" aria-label="Grove on social media">
            {socialLinks.map(({ name, href, Icon }) => (
              <li key={name}>
                <a
                  href={href}
                  rel="noopener noreferrer"
                  aria-label={`Grove on ${name}`}
                  title={name}
                >
                  <Icon size={22} />
                </a>
              </li>
            ))}
          </ul>
        </div>
        <p className="mk-footer__copy">© {new Date().getFullYear()} Grove. All rights reserved.</p>
      </div>
    </footer>
  );
}
