import { hrefs } from '@grove/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Footer } from '../../components/footer/Footer';
import { usePageMeta } from '../../components/usePageMeta';
import './privacy.css';

/** docs/product.md#screens: the date the policy was last updated. */
export const PRIVACY_LAST_UPDATED = 'November 24 2023';
/** docs/product.md#overview, docs/product.md#constants: Grove is not directed at children under this age. */
export const MINIMUM_AGE = 13;
/** Where privacy questions go (docs/product.md#overview: "a contact address"). */
export const PRIVACY_EMAIL = 'privacy@grove.app';

interface PolicySection {
  id: string;
  title: string;
  body: ReactNode;
}

/** docs/product.md#overview: the 8 sections of the policy, in order. */
const sections: PolicySection[] = [
  {
    id: 'information-we-collect',
    title: 'Information we collect',
    body: (
      <>
        <p>We collect only what we need to run Grove for you and your members:</p>
        <ul>
          <li>
            <strong>Account information</strong>: your name, business name, email address, phone
            number, website and password (stored only as a secure hash).
          </li>
          <li>
            <strong>Referral information</strong>: the names and email addresses of your members and
            of the friends they refer, and who referred whom.
          </li>
          <li>
            <strong>Usage information</strong>: which pages and features you use and when, so we can
            keep Grove fast and reliable.
          </li>
          <li>
            <strong>Device information</strong>: your browser, operating system and IP address.
          </li>
          <li>
            <strong>Location information</strong>: your approximate location, only with your
            consent.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'how-we-use-information',
    title: 'How we use your information',
    body: (
      <p>
        To provide and improve Grove: to manage your members, trees and branches, apply referral
        discounts, sync with the CRM you connect, keep your account secure, answer your support
        requests, and tell you about changes to the service.
      </p>
    ),
  },
  {
    id: 'sharing',
    title: 'How we share your information',
    body: (
      <p>
        We never sell your information. We share it only with the service providers that run Grove
        on our behalf (hosting, email delivery and the CRM you choose to connect, such as Mindbody),
        when the law requires it, or with your consent.
      </p>
    ),
  },
  {
    id: 'your-choices',
    title: 'Your choices',
    body: (
      <>
        <p>
          You can see and correct your information in Account Settings, unsubscribe from emails, and
          withdraw your consent to location data at any time. What you and your members can ask for,
          and how:
        </p>
        <ul>
          <li>
            <strong>A copy of everything</strong> (owners): Account Settings → “Export your data”
            makes a ZIP of spreadsheets with your members, branches, prospects, price history and
            settings, and a README that explains each file. Download it within 24 hours.
          </li>
          <li>
            <strong>Erasing a member</strong> (members and referred friends): ask the business you
            joined, or us at {PRIVACY_EMAIL}. The business erases your name and email from your
            profile in Grove; your price and the branches that count for others stay, without your
            name, so nobody else’s discount changes.
          </li>
          <li>
            <strong>Closing an account</strong> (owners): Account Settings → “Close your account”,
            confirmed with your password. Everything of your business is deleted 30 days later;
            until then you can sign in and cancel. Grove’s subscription stops renewing.
          </li>
        </ul>
        <p>Before Grove emails your members, the owner verifies their own email address.</p>
      </>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <p>
        We protect your information with encryption in transit, hashed passwords, encrypted CRM
        credentials and strict access controls: each business can only ever see its own data. No
        system is perfectly secure, so we also monitor for and respond to incidents.
      </p>
    ),
  },
  {
    id: 'children',
    title: 'Children’s privacy',
    body: (
      <p>
        Grove is not directed at children under {MINIMUM_AGE}, and we do not knowingly collect
        information from them. If you believe a child under {MINIMUM_AGE} has given us information,
        contact us and we will delete it.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        We may update this policy as Grove changes. We will post the new version on this page with a
        new “last updated” date, and tell you by email before any material change takes effect.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact us',
    body: (
      <p>
        Questions or requests about your privacy: write to{' '}
        <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a> or use our{' '}
        <Link to={hrefs.contact}>contact form</Link>.
      </p>
    ),
  },
];

/** Privacy policy (docs/product.md#overview, docs/product.md#public-pages): 'Global Privacy Policy', last updated November 24 2023, 8 numbered sections. */
export function PrivacyPolicyPage() {
  usePageMeta({
    title: 'Privacy Policy',
    description:
      'Grove’s Global Privacy Policy: what information we collect, how we use and share it, your choices, security, children’s privacy and how to contact us.',
  });
  return (
    <>
      <main className="mk-main">
        <article className="mk-container mk-policy">
          <header className="mk-policy__header">
            <h1>Global Privacy Policy</h1>
            <p className="g-muted">Last updated {PRIVACY_LAST_UPDATED}</p>
            <p>
              This policy explains how Grove handles the information of the businesses that use it,
              their members and the friends those members refer.
            </p>
          </header>
          <nav aria-label="Policy sections" className="mk-policy__toc">
            <ol>
              {sections.map((section) => (
                <li key={section.id}>
                  <a href={`#${section.id}`}>{section.title}</a>
                </li>
              ))}
            </ol>
          </nav>
          <ol className="mk-policy__sections">
            {sections.map((section, index) => (
              <li key={section.id} id={section.id} className="mk-policy__section">
                <h2>
                  <span className="mk-policy__number">{index + 1}.</span> {section.title}
                </h2>
                {section.body}
              </li>
            ))}
          </ol>
        </article>
      </main>
      <Footer />
    </>
  );
}
