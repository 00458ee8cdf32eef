import { useLayoutEffect } from 'react';
import { Route, Routes } from 'react-router-dom';
import { NotFoundPage } from '@grove/web-ui';
import { HomePage } from './features/home/HomePage';
import { PricingPage } from './features/pricing/PricingPage';
import { AboutPage } from './features/about/AboutPage';
import { PrivacyPolicyPage } from './features/privacy/PrivacyPolicyPage';
import { LandingPage } from './features/landing/LandingPage';
import { ContactPage } from './features/contact/ContactPage';
import { releasePrerendered } from './prerender/release-prerendered';
import './marketing.css';

// Every page ships in this module (a page of its own would cost each first visit one more round
// trip); what is heavy loads on demand inside the page: the contact form (captcha widget and
// phone-number metadata) and the landing page's lead form, so no other page pays for them.

/**
 * The public site (docs/product.md#screens). The shell mounts this remote for every path it does not own, so
 * unknown paths get the 404 screen here. When the API sent the page prerendered, the live page
 * replaces it before the first paint after it renders (releasePrerendered).
 */
export default function MarketingRoutes() {
  useLayoutEffect(() => releasePrerendered(), []);
  return (
    <Routes>
      <Route index element={<HomePage />} />
      <Route path="pricing" element={<PricingPage />} />
      <Route path="about" element={<AboutPage />} />
      <Route path="contact" element={<ContactPage />} />
      <Route path="privacyPolicy" element={<PrivacyPolicyPage />} />
      <Route path="landingPage" element={<LandingPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
