import { render } from '@testing-library/react';
import { usePageMeta, type PageMeta } from './usePageMeta';

function Page(meta: PageMeta) {
  usePageMeta(meta);
  return null;
}

function descriptionTag(): HTMLMetaElement | null {
  return document.head.querySelector('meta[name="description"]');
}

beforeEach(() => {
  document.head.innerHTML = '<title>Grove</title><meta name="description" content="Grove default">';
});

it('sets the page’s own title and description, and restores the defaults when it leaves', () => {
  const { unmount } = render(<Page title="Pricing" description="$99 per month" />);
  expect(document.title).toBe('Pricing · Grove');
  expect(descriptionTag()?.content).toBe('$99 per month');
  unmount();
  expect(document.title).toBe('Grove');
  expect(descriptionTag()?.content).toBe('Grove default');
});

it('adds a description tag when the document has none, and removes it again', () => {
  document.head.innerHTML = '<title>Grove</title>';
  const { unmount } = render(<Page title="About" description="Our Mission" />);
  expect(descriptionTag()?.content).toBe('Our Mission');
  unmount();
  expect(descriptionTag()).toBeNull();
});
