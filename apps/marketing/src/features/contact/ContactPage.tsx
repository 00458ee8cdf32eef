import { lazy, Suspense } from 'react';
import { Spinner } from '@grove/web-ui';
import { Footer } from '../footer/Footer';
import { usePageMeta } from '../usePageMeta';
import './contact.css';

// The form (with the phone rules' libphonenumber metadata and the captcha) loads only here.
const ContactForm = lazy(() =>
  import('./ContactForm').then((module) => ({ default: module.ContactForm })),
);

/** Contact (SPEC §2): a short introduction beside the contact form, then the footer. */
export function ContactPage() {
  usePageMeta({
    title: 'Contact',
    description:
      'Talk to the Grove team: ask about referral programs for your gym, book a walkthrough or get help moving your Mindbody members across.',
  });
  return (
    <>
      <main className="mk-section mk-contact">
        <div className="mk-contact__intro">
          <h1>Contact us</h1>
          <p>
            Questions about Grove, a walkthrough for your gym, or help bringing your members across?
            Send us a message and a real person will get back to you.
          </p>
          <ul className="mk-contact__points">
            <li>Free until your first 2 members arrive through Grove</li>
            <li>Mindbody integration for your member list</li>
            <li>Support around the clock, 24/7</li>
          </ul>
        </div>
        <Suspense fallback={<Spinner label="Loading the contact form…" />}>
          <ContactForm />
        </Suspense>
      </main>
      <Footer />
    </>
  );
}
