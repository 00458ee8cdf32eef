// The Stripe sandbox as a module: start one in-process with `startStripeSandbox` (tests do), or
// run `main.ts` as a service. docs/stripe.md describes it.
export {
  startStripeSandbox,
  type RunningStripeSandbox,
  type StartStripeSandboxOptions,
} from './app/start-sandbox';
export {
  CONTROL_BASE,
  DEFAULT_API_VERSION,
  DEFAULT_STRIPE_SANDBOX_OPTIONS,
  StripeSandbox,
  type RequestRecord,
  type StripeSandboxOptions,
} from './app/stripe-sandbox';
export {
  STRIPE_OPERATIONS,
  type ParamSpec,
  type StripeOperation,
  type StripeOperationId,
} from './contract/stripe-operations';
export type {
  DeliveryRecord,
  WebhookEndpoint,
  WebhookEndpointInput,
} from './app/webhook-dispatcher';
export { stripeSignatureHeader } from './app/webhook-signature';
export { TEST_CARD, DECLINED_CARD } from './app/hosted-pages';
