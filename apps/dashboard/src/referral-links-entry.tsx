import { ReferralLinksPage } from './features/referral-links/ReferralLinksPage';
import './dashboard.css';

/** The Referral Links screen, mounted by the shell at /referral-links (SPEC §2). */
export default function ReferralLinksRoute() {
  return <ReferralLinksPage />;
}
