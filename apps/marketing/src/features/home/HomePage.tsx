import { hrefs } from '@grove/contracts';
import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { Footer } from '../../components/footer/Footer';
import {
  DashboardIcon,
  LinkIcon,
  PriceDropIcon,
  SupportIcon,
  SyncIcon,
  TreeIcon,
  type IconProps,
} from '../../components/icons/Icons';
import { usePageMeta } from '../../components/usePageMeta';
import { GroveTreeArt } from './GroveTreeArt';
import './home.css';

interface SellingPoint {
  title: string;
  text: string;
  Icon: ComponentType<IconProps>;
}

/** docs/product.md#overview: what Grove does for an owner. */
const sellingPoints: SellingPoint[] = [
  {
    title: 'Trees and branches',
    text: 'Every member is a tree and every friend they bring is a branch, so you can see at a glance who grows your community.',
    Icon: TreeIcon,
  },
  {
    title: 'Referral links',
    text: 'Each member gets a personal referral link and QR code. Friends join in seconds and wait in Prospective Members for your approval.',
    Icon: LinkIcon,
  },
  {
    title: 'Prices that drop with every referral',
    text: 'Set a discount per referral and each new branch lowers that member’s price automatically. Referring keeps paying off.',
    Icon: PriceDropIcon,
  },
  {
    title: 'A dashboard made for you',
    text: 'Your trees, branches, referral links and prospective members in one calm, personalised view.',
    Icon: DashboardIcon,
  },
  {
    title: 'Mindbody sync',
    text: 'Import your Mindbody clients, keep them in sync and apply referral discounts to their real bills.',
    Icon: SyncIcon,
  },
  {
    title: '24/7 support',
    text: 'Real people ready to help whenever you need us, day or night.',
    Icon: SupportIcon,
  },
];

const steps = [
  {
    title: 'Add your members',
    text: 'Plant a tree for each member, or import them from Mindbody or Stripe.',
  },
  {
    title: 'Share their links',
    text: 'Members send their referral link to friends who would love your gym.',
  },
  {
    title: 'Approve and reward',
    text: 'Approve each friend; they become a branch and the member pays less.',
  },
];

/**
 * Home (docs/product.md#public-pages): hero with 'Try Grove for free' (→ /contact), the selling points of docs/product.md#overview,
 * the figures '6+ Businesses are ready to launch' and '1 Supported CRM' (Mindbody; member billing on
 * Stripe beside it, issue 32: Stripe bills members, it is no CRM), how it works,
 * then the footer.
 */
export function HomePage() {
  usePageMeta({
    title: 'Referrals that grow your gym',
    description:
      'Grove turns your members’ friends into new members: referral links, member trees and branches, prices that drop with every referral, and Mindbody sync.',
  });
  return (
    <>
      <main className="mk-main">
        <section className="mk-hero mk-hero--home" aria-labelledby="home-title">
          <div className="mk-hero__copy">
            <p className="mk-eyebrow">Referral and retention for gyms</p>
            <h1 id="home-title">Grow your gym through the people who already love it</h1>
            <p className="mk-lead">
              Grove turns your members’ friends into new members, and rewards every referral with a
              lower membership price.
            </p>
            <div className="mk-actions">
              <Link to={hrefs.contact} className="g-btn g-btn--primary mk-btn--lg">
                Try Grove for free
              </Link>
              <Link to={hrefs.pricing} className="g-btn g-btn--secondary mk-btn--lg">
                See pricing
              </Link>
            </div>
          </div>
          <GroveTreeArt className="mk-hero__art" />
        </section>

        <section className="mk-stats" aria-label="Grove in numbers">
          <div className="mk-stat">
            <strong className="mk-stat__figure">6+</strong>{' '}
            <span className="mk-stat__label">Businesses are ready to launch</span>
          </div>
          <div className="mk-stat">
            <strong className="mk-stat__figure">1</strong>{' '}
            <span className="mk-stat__label">
              Supported CRM <span className="g-badge">Mindbody</span>
              {/* Issue 32: Stripe member billing beside the CRM, not a second CRM. */}
              <span className="mk-stat__note">
                and <strong>Stripe</strong> member billing
              </span>
            </span>
          </div>
        </section>

        <section className="mk-band" aria-labelledby="why-title">
          <div className="mk-container">
            <h2 id="why-title" className="mk-heading">
              Everything you need to grow by word of mouth
            </h2>
            <ul className="mk-points">
              {sellingPoints.map(({ title, text, Icon }) => (
                <li key={title} className="g-card mk-point">
                  <span className="mk-point__icon">
                    <Icon size={26} />
                  </span>
                  <h3>{title}</h3>
                  <p>{text}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section className="mk-container mk-steps-section" aria-labelledby="how-title">
          <h2 id="how-title" className="mk-heading">
            How Grove works
          </h2>
          <ol className="mk-steps">
            {steps.map((step) => (
              <li key={step.title} className="mk-step">
                <h3>{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </section>
      </main>
      <Footer />
    </>
  );
}
