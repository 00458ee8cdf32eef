import { Link } from 'react-router-dom';
import { Footer } from '../footer/Footer';
import { usePageTitle } from '../usePageTitle';

/** Landing page (SPEC §2): headline, 'Try Free' → /signup, 'Supports Mindbody Integration'. */
export function LandingPage() {
  usePageTitle('Referrals for gyms');
  return (
    <>
      <main className="mk-hero">
        <h1>Your members are your best marketing</h1>
        <p>Give every member a referral link, watch their tree grow, and reward them automatically.</p>
        <Link to="/signup" className="g-btn g-btn--primary">
          Try Free
        </Link>
        <p className="g-badge">Supports Mindbody Integration</p>
      </main>
      <Footer />
    </>
  );
}
