import { GROVE_MONTHLY_PRICE_DOLLARS, GROVE_PLAN, hrefs } from '@grove/contracts';
import { Link } from 'react-router-dom';
import { Footer } from '../../components/footer/Footer';
import { CheckIcon } from '../../components/icons/Icons';
import { usePageMeta } from '../../components/usePageMeta';
import './pricing.css';

/**
 * docs/product.md#overview, docs/product.md#constants: flat monthly price, free until the first 2
 * members arrive through Grove: the plan Grove bills (`GROVE_PLAN`, docs/product.md#billing).
 */
export const MONTHLY_PRICE_DOLLARS = GROVE_MONTHLY_PRICE_DOLLARS;
/** docs/product.md#constants: Grove is free until this many members have come through it. */
export const FREE_UNTIL_MEMBERS = GROVE_PLAN.freeMembers;

/** docs/product.md#overview: the features the subscription includes. */
const features = [
  {
    title: 'Personalised dashboard',
    text: 'Your trees, branches and prospective members in one calm view.',
  },
  { title: 'Member trees and branches', text: 'See who referred whom and what every member pays.' },
  { title: 'CRM integration', text: 'Import and sync your Mindbody clients and their discounts.' },
  { title: '24/7 support', text: 'Help whenever you need it.' },
];

const questions = [
  {
    question: 'When do I start paying?',
    answer: `Only once your first ${FREE_UNTIL_MEMBERS} members have arrived through Grove. Until then, Grove is free.`,
  },
  {
    question: 'Is there a contract or a setup fee?',
    answer: 'No. One flat monthly subscription, with everything included.',
  },
  {
    question: 'Which CRM does Grove work with?',
    answer: 'Mindbody today. Grove also works on its own if you do not use a CRM.',
  },
];

/**
 * Pricing (docs/product.md#public-pages): 'Simple & Transparent Pricing', $99 per month, the included features, free
 * until the first 2 members arrive through Grove, and 'Try for free' (→ /signup).
 */
export function PricingPage() {
  usePageMeta({
    title: 'Pricing',
    description: `Simple & transparent pricing: $${MONTHLY_PRICE_DOLLARS} per month for Grove, free until your first ${FREE_UNTIL_MEMBERS} members arrive through referrals. Dashboard, trees, CRM integration and 24/7 support included.`,
  });
  return (
    <>
      <main className="mk-main">
        <section className="mk-hero mk-hero--page" aria-labelledby="pricing-title">
          <p className="mk-eyebrow">Pricing</p>
          <h1 id="pricing-title">Simple &amp; Transparent Pricing</h1>
          <p className="mk-lead">
            One plan with everything in it. You only pay once Grove has brought you new members.
          </p>
        </section>
        <div className="mk-container mk-pricing">
          <section className="g-card mk-price" aria-labelledby="plan-title">
            <h2 id="plan-title" className="mk-price__plan">
              Grove
            </h2>
            <p className="mk-price__amount">
              <strong>${MONTHLY_PRICE_DOLLARS}</strong>
              <span>per month</span>
            </p>
            <p className="mk-price__free">
              Free until your first {FREE_UNTIL_MEMBERS} members arrive through Grove.
            </p>
            <ul className="mk-checks">
              {features.map((feature) => (
                <li key={feature.title}>
                  <CheckIcon size={22} className="mk-checks__icon" />
                  <span>
                    <strong>{feature.title}</strong>
                    <span className="mk-checks__text">{feature.text}</span>
                  </span>
                </li>
              ))}
            </ul>
            <Link to={hrefs.signup} className="g-btn g-btn--primary mk-btn--lg mk-btn--block">
              Try for free
            </Link>
          </section>
          <section className="mk-faq" aria-labelledby="faq-title">
            <h2 id="faq-title">Questions owners ask</h2>
            <dl>
              {questions.map((item) => (
                <div key={item.question} className="mk-faq__item">
                  <dt>{item.question}</dt>
                  <dd>{item.answer}</dd>
                </div>
              ))}
            </dl>
          </section>
        </div>
      </main>
      <Footer />
    </>
  );
}
