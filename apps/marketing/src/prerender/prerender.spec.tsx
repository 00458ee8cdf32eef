import { MARKETING_PAGES, PRERENDERED_ELEMENT_ID, PRERENDERED_STYLE_ID } from '@grove/contracts';
import { renderPages } from './prerender';
import { releasePrerendered } from './release-prerendered';

jest.mock('../features/landing/assets/product-tour.mp4', () => '/assets/product-tour.mp4');
jest.mock('../features/landing/assets/product-tour-poster.webp', () => '/assets/poster.webp');

describe('the prerendered pages', () => {
  const pages = renderPages();

  it('renders every public page and the 404 screen, each with its own title, description and headline', () => {
    expect(pages.map((page) => page.path)).toEqual([
      ...MARKETING_PAGES.map((segment) => `/${segment}`),
      null,
    ]);
    const byPath = new Map(pages.map((page) => [page.path, page]));
    expect(byPath.get('/pricing')).toMatchObject({
      title: 'Pricing · Grove',
      headline: 'Simple & Transparent Pricing',
      description: expect.stringContaining('$99 per month'),
    });
    expect(byPath.get('/')?.headline).toBe('Grow your gym through the people who already love it');
    expect(byPath.get('/contact')?.headline).toBe('Contact us');
    expect(byPath.get(null)?.headline).toBe('OOPS.. PAGE NOT FOUND!');
    expect(new Set(pages.map((page) => page.title)).size).toBe(pages.length);
    expect(new Set(pages.map((page) => page.description)).size).toBe(pages.length);
  });

  it('puts the page text in the markup, inside the top bar a visitor sees', () => {
    const pricing = pages.find((page) => page.path === '/pricing');
    expect(pricing?.html).toContain('Free until your first <!-- -->2<!-- --> members arrive');
    expect(pricing?.html).toContain(
      '<a aria-current="page" class="active" href="/pricing">Pricing</a>',
    );
    expect(pricing?.html).toContain('href="/login">Log In</a>');
    expect(pricing?.html).toContain('<h1 id="pre-pricing-title">');
    expect(pricing?.html).toContain('aria-labelledby="pre-pricing-title"');
    const landing = pages.find((page) => page.path === '/landingPage');
    // Learn More works once the live page has replaced the copy.
    expect(landing?.html).toMatch(/<button disabled=""[^>]*aria-haspopup="dialog">Learn More/);
    const contact = pages.find((page) => page.path === '/contact');
    expect(contact?.html).toContain('a real person will get back to you');
  });

  it('points the SVG art at its own prefixed gradient (the home hero draws its sky)', () => {
    const home = pages.find((page) => page.path === '/');
    expect(home?.html).toContain('<linearGradient id="pre-mk-art-sky"');
    expect(home?.html).toContain('fill="url(#pre-mk-art-sky)"');
    expect(home?.html).not.toContain('url(#mk-art-sky)');
  });

  it('marks the one page whose markup the API completes (the contact form without JavaScript)', () => {
    // That page keeps the whole stylesheet; every other gets only the rules it uses.
    expect(pages.filter((page) => page.completedByApi).map((page) => page.path)).toEqual([
      '/contact',
    ]);
  });

  it('makes one Open Graph image per page from one template', () => {
    for (const page of pages) {
      expect(page.imageSvg).toContain('width="1200" height="630"');
      expect(page.imageSvg).toContain('$99 per month, free until your first 2 members');
    }
  });
});

describe('releasePrerendered', () => {
  it('removes the prerendered page and shows the root the shell rendered into', () => {
    document.body.innerHTML = `<style id="${PRERENDERED_STYLE_ID}">h1{color:red}</style><div id="${PRERENDERED_ELEMENT_ID}"><h1>Pricing</h1></div><div id="root" hidden><h1>Pricing</h1></div>`;
    releasePrerendered();
    expect(document.getElementById(PRERENDERED_ELEMENT_ID)).toBeNull();
    expect(document.getElementById(PRERENDERED_STYLE_ID)).toBeNull();
    expect(document.getElementById('root')?.hidden).toBe(false);
  });
});
