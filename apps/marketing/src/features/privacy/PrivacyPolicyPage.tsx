import { Footer } from '../footer/Footer';
import { usePageTitle } from '../usePageTitle';

const sections = [
  ['Information we collect', 'Account details you give us, referral details of the people your members refer, how you use Grove, your device, and your location only with your consent.'],
  ['How we use information', 'To run Grove, apply referral discounts, keep your account secure and improve the product.'],
  ['How we share information', 'Only with the services that run Grove for you (such as your connected CRM) and when the law requires it. We never sell your data.'],
  ['Your choices', 'You can see, correct or delete your data and close your account at any time.'],
  ['Security', 'We protect your data with encryption in transit, hashed passwords and strict access controls.'],
  ['Children', 'Grove is not directed at children under 13 and we do not knowingly collect their data.'],
  ['Changes to this policy', 'We will tell you about material changes before they take effect.'],
  ['Contact us', 'Questions about privacy: privacy@grove.app.'],
];

/** Privacy policy (SPEC §1/§2): 'Global Privacy Policy', last updated November 24 2023, 8 sections. */
export function PrivacyPolicyPage() {
  usePageTitle('Privacy Policy');
  return (
    <>
      <main className="mk-section mk-prose">
        <h1>Global Privacy Policy</h1>
        <p className="g-muted">Last updated November 24, 2023</p>
        <ol>
          {sections.map(([title, text]) => (
            <li key={title}>
              <h2>{title}</h2>
              <p>{text}</p>
            </li>
          ))}
        </ol>
      </main>
      <Footer />
    </>
  );
}
