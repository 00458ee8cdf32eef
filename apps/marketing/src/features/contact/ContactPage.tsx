import { Footer } from '../footer/Footer';
import { usePageTitle } from '../usePageTitle';

/** Contact. The full form with captcha arrives with the public-site issue; email works today. */
export function ContactPage() {
  usePageTitle('Contact');
  return (
    <>
      <main className="mk-section mk-prose">
        <h1>Contact us</h1>
        <p>
          Tell us about your business and we will help you start growing: write to{' '}
          <a href="mailto:hello@grove.app">hello@grove.app</a>.
        </p>
      </main>
      <Footer />
    </>
  );
}
