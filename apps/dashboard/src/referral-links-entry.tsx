import { ReferralLinksPage } from './features/referral-links/ReferralLinksPage';
import './dashboard.css';

/** The Referral Links screen, mounted by the shell at /referral-links (docs/product.md#screens). */
export default function ReferralLinksRoute() {
  return <ReferralLinksPage />;
}
