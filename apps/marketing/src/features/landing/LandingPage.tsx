import { hrefs } from '@grove/contracts';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Modal, Spinner } from '@grove/web-ui';
import { Footer } from '../../components/footer/Footer';
import { CheckIcon, SyncIcon } from '../../components/icons/Icons';
import { usePageMeta } from '../../components/usePageMeta';
import tourPoster from './assets/product-tour-poster.webp';
import tourVideo from './assets/product-tour.mp4';
import './landing.css';

const loadLeadForm = () => import('./LeadForm');
const LeadForm = lazy(() => loadLeadForm().then((module) => ({ default: module.LeadForm })));

const highlights = [
  'A referral link and QR code for every member',
  'Prices that drop with every friend who joins',
  'Free until your first 2 members arrive through Grove',
];

/**
 * Landing page (docs/product.md#landing-page): a headline, 'Try Free' (→ /signup), 'Learn More' (opens the lead
 * pop-up, which really sends the lead), a product-tour video served by Grove, and the note
 * 'Supports Mindbody Integration'.
 */
export function LandingPage() {
  usePageMeta({
    title: 'Turn members into your best marketing',
    description:
      'Grove gives every gym member a referral link, tracks the friends they bring as branches of their tree, and lowers their price with every referral. Supports Mindbody.',
  });
  const [leadOpen, setLeadOpen] = useState(false);
  // Fetch the form's code as soon as the visitor shows interest, so the pop-up opens instantly.
  const prefetch = () => void loadLeadForm();
  return (
    <>
      <main className="mk-main">
        <section className="mk-hero mk-hero--landing" aria-labelledby="landing-title">
          <div className="mk-hero__copy">
            <p className="mk-eyebrow">For gyms and membership businesses</p>
            <h1 id="landing-title">Your members are your best marketing</h1>
            <p className="mk-lead">
              Give every member a referral link, watch their tree grow, and reward them
              automatically with a lower price.
            </p>
            <div className="mk-actions">
              <Link to={hrefs.signup} className="g-btn g-btn--primary mk-btn--lg">
                Try Free
              </Link>
              <Button
                variant="secondary"
                className="mk-btn--lg"
                aria-haspopup="dialog"
                onClick={() => setLeadOpen(true)}
                onPointerEnter={prefetch}
                onFocus={prefetch}
              >
                Learn More
              </Button>
            </div>
            <p className="mk-integration">
              <SyncIcon size={20} />
              Supports Mindbody Integration
            </p>
          </div>
          <figure className="mk-video">
            <video
              className="mk-video__player"
              controls
              preload="none"
              playsInline
              poster={tourPoster}
              width={1280}
              height={720}
              aria-label="Grove product tour: the Branches, Referral Links and Prospective Members screens (15 seconds, no sound)"
            >
              <source src={tourVideo} type="video/mp4" />
              <a href={tourVideo}>Download the Grove product tour (MP4)</a>
            </video>
            <figcaption className="mk-video__caption">A 15-second tour of Grove</figcaption>
          </figure>
        </section>
        <section className="mk-container mk-highlights" aria-label="Why owners choose Grove">
          <ul className="mk-checks mk-checks--row">
            {highlights.map((text) => (
              <li key={text}>
                <CheckIcon size={22} className="mk-checks__icon" />
                <span>{text}</span>
              </li>
            ))}
          </ul>
        </section>
      </main>
      <Footer />
      <Modal open={leadOpen} title="Learn more about Grove" onClose={() => setLeadOpen(false)}>
        <Suspense fallback={<Spinner label="Loading the form…" />}>
          <LeadForm onDone={() => setLeadOpen(false)} />
        </Suspense>
      </Modal>
    </>
  );
}
