import { Link } from 'react-router-dom';
import { Footer } from '../footer/Footer';
import { usePageTitle } from '../usePageTitle';

const points = [
  { title: 'Member trees', text: 'Every member is a tree; every friend they bring is a branch. See who grows your gym.' },
  { title: 'Discounts that add up', text: 'Each branch lowers the member’s price automatically, so referring keeps paying off.' },
  { title: 'Works with Mindbody', text: 'Import members and keep referral discounts on their real bills.' },
];

/** Home (SPEC §2): hero with 'Try Grove for free' → /contact, selling points and the two figures. */
export function HomePage() {
  usePageTitle('Referrals that grow your gym');
  return (
    <>
      <main>
        <section className="mk-hero">
          <h1>Grow your gym through the people who already love it</h1>
          <p>Grove turns your members’ friends into new members, and rewards every referral with a lower price.</p>
          <Link to="/contact" className="g-btn g-btn--primary">
            Try Grove for free
          </Link>
        </section>
        <section className="mk-points" aria-label="Why Grove">
          {points.map((point) => (
            <article key={point.title} className="g-card">
              <h2>{point.title}</h2>
              <p>{point.text}</p>
            </article>
          ))}
        </section>
        <section className="mk-stats" aria-label="Grove in numbers">
          <div>
            <strong>6+</strong> Businesses are ready to launch
          </div>
          <div>
            <strong>1</strong> Supported CRM <span className="g-badge">Mindbody</span>
          </div>
        </section>
      </main>
      <Footer />
    </>
  );
}
