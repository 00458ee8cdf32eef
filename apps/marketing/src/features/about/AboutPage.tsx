import { Footer } from '../footer/Footer';
import { usePageTitle } from '../usePageTitle';

/** About (SPEC §2): 'Our Mission' and 'The Founding Story', then the footer. */
export function AboutPage() {
  usePageTitle('About');
  return (
    <>
      <main className="mk-section mk-prose">
        <h1>About Grove</h1>
        <h2>Our Mission</h2>
        <p>
          We help membership businesses build loyal communities on the networks of the customers who already love them.
        </p>
        <h2>The Founding Story</h2>
        <p>
          Grove was started by three founders who saw their local gyms grow fastest through word of mouth, and wanted every
          member who brings a friend to feel it in their own membership price.
        </p>
      </main>
      <Footer />
    </>
  );
}
