import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { NotFoundPage, Spinner } from '@grove/web-ui';
import { HomePage } from './features/home/HomePage';
import './marketing.css';

// Home ships in this module (it is the page most visitors land on); every other page is its own
// chunk, fetched when first visited, so the home page carries none of their code (the contact
// form's captcha and phone rules above all).
const PricingPage = lazy(() => import('./features/pricing/PricingPage').then((m) => ({ default: m.PricingPage })));
const AboutPage = lazy(() => import('./features/about/AboutPage').then((m) => ({ default: m.AboutPage })));
const ContactPage = lazy(() => import('./features/contact/ContactPage').then((m) => ({ default: m.ContactPage })));
const PrivacyPolicyPage = lazy(() =>
  import('./features/privacy/PrivacyPolicyPage').then((m) => ({ default: m.PrivacyPolicyPage })),
);
const LandingPage = lazy(() => import('./features/landing/LandingPage').then((m) => ({ default: m.LandingPage })));

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
      <Route path="pricing" element={<Page><PricingPage /></Page>} />
      <Route path="about" element={<Page><AboutPage /></Page>} />
      <Route path="contact" element={<Page><ContactPage /></Page>} />
      <Route path="privacyPolicy" element={<Page><PrivacyPolicyPage /></Page>} />
      <Route path="landingPage" element={<Page><LandingPage /></Page>} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
