import { heroImagePreload } from './prerendered-html';

describe('heroImagePreload', () => {
  it("preloads the landing page's video poster, the page's largest paint", () => {
    const markup =
      '<main><h1>Grow</h1><video class="mk-video__player" controls="" preload="none" ' +
      'poster="https://cdn.example.com/marketing/assets/product-tour-poster.1a2b.webp" width="1280">' +
      '</video><img src="/remotes/marketing/assets/logo.svg" alt=""></main>';
    expect(heroImagePreload(markup)).toEqual([
      '<link rel="preload" as="image" href="https://cdn.example.com/marketing/assets/product-tour-poster.1a2b.webp" fetchpriority="high" />',
    ]);
  });

  it('preloads an image the page marks as its hero, and nothing on a page without one', () => {
    expect(
      heroImagePreload(
        '<img alt="" fetchpriority="high" src="/remotes/marketing/assets/team.webp">',
      ),
    ).toEqual([
      '<link rel="preload" as="image" href="/remotes/marketing/assets/team.webp" fetchpriority="high" />',
    ]);
    expect(
      heroImagePreload('<h1>Pricing</h1><img src="/remotes/marketing/assets/tick.svg" alt="">'),
    ).toEqual([]);
  });
});
