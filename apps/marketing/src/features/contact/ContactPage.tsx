import { lazy, Suspense, useEffect, useState } from 'react';
import { Spinner } from '@grove/web-ui';
import { PRERENDERED_FORM_SLOT } from '@grove/contracts';
import { Footer } from '../../components/footer/Footer';
import { usePageMeta } from '../../components/usePageMeta';
import './contact.css';

// The form (with the phone rules' libphonenumber metadata and the captcha) loads only here.
const ContactForm = lazy(() =>
  import('./ContactForm').then((module) => ({ default: module.ContactForm })),
);

/**
 * True once the browser has painted the page at least once. The contact form's chunks (phone
 * rules, react-hook-form, the captcha) start loading only then, so the introduction paints first
 * (docs/decisions/contact-form-after-first-paint.md).
 */
function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    // The animation frame runs before the next paint; the timeout lands after it.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  return painted;
}

/** Contact (docs/product.md#screens): a short introduction beside the contact form, then the footer. */
export function ContactPage() {
  usePageMeta({
    title: 'Contact',
    description:
      'Talk to the Grove team: ask about referral programs for your gym, book a walkthrough or get help moving your Mindbody members across.',
  });
  const showForm = useAfterFirstPaint();
  const loading = <Spinner label="Loading the contact form…" />;
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
        {/* The slot keeps the form's height while it loads, so nothing below it moves. In the
            prerendered page the API puts its form without JavaScript first in it. */}
        <div className="mk-contact__form-slot" {...{ [PRERENDERED_FORM_SLOT]: 'contact' }}>
          {showForm ? (
            <Suspense fallback={loading}>
              <ContactForm />
            </Suspense>
          ) : (
            loading
          )}
        </div>
      </main>
      <Footer />
    </>
  );
}
