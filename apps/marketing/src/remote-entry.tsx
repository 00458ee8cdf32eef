import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { NotFoundPage, Spinner } from '@grove/web-ui';
import { HomePage } from './features/home/HomePage';
import { PricingPage } from './features/pricing/PricingPage';
import { AboutPage } from './features/about/AboutPage';
import { PrivacyPolicyPage } from './features/privacy/PrivacyPolicyPage';
import { LandingPage } from './features/landing/LandingPage';
import './marketing.css';

// The light pages (text, the landing page's video link) ship in this module: a page of its own
// would cost every first visit one more round trip. The contact page (its captcha widget and the
// phone-number metadata) and the landing page's lead form are chunks of their own, fetched when
// first needed, so no other page pays for them.
const ContactPage = lazy(() => import('./features/contact/ContactPage').then((m) => ({ default: m.ContactPage })));

/** A page loaded on demand; the placeholder keeps the footer from jumping up while it loads. */
function Page({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="mk-page-loading">
          <Spinner label="Loading the page…" />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

/**
 * The public site (SPEC §2). The shell mounts this remote for every path it does not own, so
 * unknown paths get the 404 screen here.
 */
export default function MarketingRoutes() {
  return (
    <Routes>
      <Route index element={<HomePage />} />
      <Route path="pricing" element={<PricingPage />} />
      <Route path="about" element={<AboutPage />} />
      <Route path="contact" element={<Page><ContactPage /></Page>} />
      <Route path="privacyPolicy" element={<PrivacyPolicyPage />} />
      <Route path="landingPage" element={<LandingPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
