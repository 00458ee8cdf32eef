import { Link } from 'react-router-dom';
import { Footer } from '../footer/Footer';
import { usePageTitle } from '../usePageTitle';

/** SPEC §1/§9: flat monthly price, free until the first 2 members arrive through Grove. */
export const MONTHLY_PRICE_DOLLARS = 99;
const features = ['Personalised dashboard', 'Member trees and branches', 'CRM integration (Mindbody)', '24/7 support'];

/** Pricing (SPEC §2): 'Simple & Transparent Pricing', $99 per month, features, 'Try for free'. */
export function PricingPage() {
  usePageTitle('Pricing');
  return (
    <>
      <main className="mk-section">
        <h1>Simple &amp; Transparent Pricing</h1>
        <div className="g-card mk-price">
          <p className="mk-price__amount">
            <strong>${MONTHLY_PRICE_DOLLARS}</strong> per month
          </p>
          <p className="g-muted">Free until your first 2 members arrive through Grove.</p>
          <ul>
            {features.map((feature) => (
              <li key={feature}>{feature}</li>
            ))}
          </ul>
          <Link to="/signup" className="g-btn g-btn--primary">
            Try for free
          </Link>
        </div>
      </main>
      <Footer />
    </>
  );
}
