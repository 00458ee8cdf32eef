import { Footer } from '../../components/footer/Footer';
import { usePageMeta } from '../../components/usePageMeta';
import './about.css';

const values = [
  { title: 'Community first', text: 'The best members arrive through friends who already belong.' },
  {
    title: 'Rewards that are felt',
    text: 'A referral should show up in a member’s own price, every month.',
  },
  { title: 'Simple by design', text: 'Owners run gyms, not software. Grove stays out of the way.' },
];

/** About (docs/product.md#overview, docs/product.md#public-pages): 'Our Mission' and 'The Founding Story' (three founders), then the footer. */
export function AboutPage() {
  usePageMeta({
    title: 'About',
    description:
      'Our mission: loyal communities built on the networks of the customers who already love a business. The founding story of Grove’s three founders.',
  });
  return (
    <>
      <main className="mk-main">
        <section className="mk-hero mk-hero--page" aria-labelledby="about-title">
          <p className="mk-eyebrow">About Grove</p>
          <h1 id="about-title">Built for businesses that grow by word of mouth</h1>
        </section>
        <div className="mk-container mk-about">
          <section className="mk-prose" aria-labelledby="mission-title">
            <h2 id="mission-title">Our Mission</h2>
            <p>
              We help membership businesses build loyal communities on the networks of the customers
              who already love them. When a member brings a friend, the whole community grows
              stronger, and the member should feel it.
            </p>
          </section>
          <ul className="mk-values">
            {values.map((value) => (
              <li key={value.title} className="g-card">
                <h3>{value.title}</h3>
                <p>{value.text}</p>
              </li>
            ))}
          </ul>
          <section className="mk-prose" aria-labelledby="story-title">
            <h2 id="story-title">The Founding Story</h2>
            <p>
              Grove was started by three founders who trained at the same local gyms and noticed
              something: the gyms that thrived were the ones whose members kept bringing their
              friends. Yet nobody kept track of those referrals, and the members who did the most
              for their gym paid exactly the same as everyone else.
            </p>
            <p>
              So the three of them built Grove: every member a tree, every friend they bring a
              branch, and a price that drops with each one. Today Grove helps gyms and studios turn
              their happiest members into their best marketing.
            </p>
          </section>
        </div>
      </main>
      <Footer />
    </>
  );
}
