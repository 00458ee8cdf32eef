import './integrations.css';
import { StripeSetupPage } from './features/stripe-setup/StripeSetupPage';

/** The Stripe billing wizard (issue 32), mounted by the shell at /stripe-setup. */
export default function StripeSetupRoute() {
  return <StripeSetupPage />;
}
