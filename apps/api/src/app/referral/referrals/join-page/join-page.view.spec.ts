import { renderJoinPage } from './join-page.view';

const assets = { css: '', script: '' };
const form = (businessName: string) =>
  renderJoinPage(
    { kind: 'form', code: 'h35_tW32g9HjTWK2', businessName, referrerFirstName: 'Zoë' },
    assets,
  );

describe('the join page offer', () => {
  it("ends the sentence once after a business name that ends in a full stop (Ó Briain's Strength & Co.)", () => {
    const html = form("Ó Briain's Strength & Co.");
    expect(html).toContain(
      'Zoë thinks you would like Ó Briain&#39;s Strength &amp; Co. Join through',
    );
    expect(html).not.toContain('Co.. Join');
  });

  it('ends it with a full stop after any other name', () => {
    expect(form('Riverside Strength')).toContain(
      'Zoë thinks you would like Riverside Strength. Join through this link',
    );
  });
});
