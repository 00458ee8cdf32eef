/**
 * Type-level test, compiled by the project's `typecheck` target (it has no runtime part): the
 * contract (`STRIPE_OPERATIONS`) and the official SDK's parameter types must agree. For each
 * operation — and for the nested objects Grove sends (line items, discounts, recurring) — every
 * parameter of the contract must be a key of the SDK's params type, and every key the SDK requires
 * must be required by the contract. A disagreement fails `tsc` with the offending names.
 */
import type Stripe from 'stripe';
import type { ParamSpec, STRIPE_OPERATIONS } from './stripe-operations';

type Ops = typeof STRIPE_OPERATIONS;
type Props = Readonly<Record<string, ParamSpec>>;

/** Keys of T that are not optional. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** Names the contract marks `required: true`. */
type ContractRequired<P extends Props> = {
  [K in keyof P]: P[K] extends { required: true } ? K : never;
}[keyof P];
/** Items of an array parameter (what `Emptyable<Array<X>>` holds), else the type. */
type Element<T> = T extends readonly (infer E)[] ? E : T;

/**
 * `true` when contract `P` and SDK params `Sdk` agree, else a tuple naming the disagreement
 * (which fails the assignment of `true` below).
 */
type Agrees<P extends Props, Sdk> = [Exclude<keyof P, keyof Sdk>] extends [never]
  ? [Exclude<RequiredKeys<Sdk>, ContractRequired<P>>] extends [never]
    ? true
    : ['SDK requires, contract does not', Exclude<RequiredKeys<Sdk>, ContractRequired<P>>]
  : ['contract has, SDK does not', Exclude<keyof P, keyof Sdk>];

type Params<Id extends keyof Ops> = Ops[Id]['params'];
type Nested<P, K extends keyof P> = P[K] extends { properties: infer Q extends Props }
  ? Q
  : P[K] extends { items: { properties: infer Q extends Props } }
    ? Q
    : never;

/** One line per operation (and nested object): each must be `true`. */
export const contractAgreesWithSdk: {
  PostCustomers: Agrees<Params<'PostCustomers'>, Stripe.CustomerCreateParams>;
  GetCustomersCustomer: Agrees<Params<'GetCustomersCustomer'>, Stripe.CustomerRetrieveParams>;
  GetCustomers: Agrees<Params<'GetCustomers'>, Stripe.CustomerListParams>;
  PostCustomersCustomerBalanceTransactions: Agrees<
    Params<'PostCustomersCustomerBalanceTransactions'>,
    Stripe.CustomerCreateBalanceTransactionParams
  >;
  PostCheckoutSessions: Agrees<Params<'PostCheckoutSessions'>, Stripe.Checkout.SessionCreateParams>;
  PostCheckoutSessionsLineItem: Agrees<
    Nested<Params<'PostCheckoutSessions'>, 'line_items'>,
    Stripe.Checkout.SessionCreateParams.LineItem
  >;
  PostCheckoutSessionsDiscount: Agrees<
    Nested<Params<'PostCheckoutSessions'>, 'discounts'>,
    Stripe.Checkout.SessionCreateParams.Discount
  >;
  PostCheckoutSessionsSubscriptionData: Agrees<
    Nested<Params<'PostCheckoutSessions'>, 'subscription_data'>,
    Stripe.Checkout.SessionCreateParams.SubscriptionData
  >;
  GetCheckoutSessionsSession: Agrees<
    Params<'GetCheckoutSessionsSession'>,
    Stripe.Checkout.SessionRetrieveParams
  >;
  PostBillingPortalSessions: Agrees<
    Params<'PostBillingPortalSessions'>,
    Stripe.BillingPortal.SessionCreateParams
  >;
  GetSubscriptions: Agrees<Params<'GetSubscriptions'>, Stripe.SubscriptionListParams>;
  GetSubscriptionsSubscriptionExposedId: Agrees<
    Params<'GetSubscriptionsSubscriptionExposedId'>,
    Stripe.SubscriptionRetrieveParams
  >;
  PostSubscriptionsSubscriptionExposedId: Agrees<
    Params<'PostSubscriptionsSubscriptionExposedId'>,
    Stripe.SubscriptionUpdateParams
  >;
  PostSubscriptionsSubscriptionExposedIdDiscount: Agrees<
    Nested<Params<'PostSubscriptionsSubscriptionExposedId'>, 'discounts'>,
    Element<Exclude<Stripe.SubscriptionUpdateParams['discounts'], '' | null | undefined>>
  >;
  GetInvoices: Agrees<Params<'GetInvoices'>, Stripe.InvoiceListParams>;
  PostInvoicesCreatePreview: Agrees<
    Params<'PostInvoicesCreatePreview'>,
    Stripe.InvoiceCreatePreviewParams
  >;
  PostProducts: Agrees<Params<'PostProducts'>, Stripe.ProductCreateParams>;
  PostPrices: Agrees<Params<'PostPrices'>, Stripe.PriceCreateParams>;
  PostPricesRecurring: Agrees<
    Nested<Params<'PostPrices'>, 'recurring'>,
    Stripe.PriceCreateParams.Recurring
  >;
  GetPrices: Agrees<Params<'GetPrices'>, Stripe.PriceListParams>;
  PostCoupons: Agrees<Params<'PostCoupons'>, Stripe.CouponCreateParams>;
  GetEventsId: Agrees<Params<'GetEventsId'>, Stripe.EventRetrieveParams>;
} = {
  PostCustomers: true,
  GetCustomersCustomer: true,
  GetCustomers: true,
  PostCustomersCustomerBalanceTransactions: true,
  PostCheckoutSessions: true,
  PostCheckoutSessionsLineItem: true,
  PostCheckoutSessionsDiscount: true,
  PostCheckoutSessionsSubscriptionData: true,
  GetCheckoutSessionsSession: true,
  PostBillingPortalSessions: true,
  GetSubscriptions: true,
  GetSubscriptionsSubscriptionExposedId: true,
  PostSubscriptionsSubscriptionExposedId: true,
  PostSubscriptionsSubscriptionExposedIdDiscount: true,
  GetInvoices: true,
  PostInvoicesCreatePreview: true,
  PostProducts: true,
  PostPrices: true,
  PostPricesRecurring: true,
  GetPrices: true,
  PostCoupons: true,
  GetEventsId: true,
};
