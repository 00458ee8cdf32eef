// The classes two features share first; each feature's own stylesheet comes with its component.
import './dashboard.css';
import { ReferralLinksPage } from './features/referral-links/ReferralLinksPage';

/** The Referral Links screen, mounted by the shell at /referral-links (docs/product.md#screens). */
export default function ReferralLinksRoute() {
  return <ReferralLinksPage />;
}
