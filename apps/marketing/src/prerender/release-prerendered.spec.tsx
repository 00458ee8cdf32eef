import { releasePrerendered, takeCarriedForm } from './release-prerendered';

function pageWithCopy(): void {
  document.body.innerHTML = `
    <style id="grove-prerendered-style"></style>
    <div id="grove-prerendered">
      <a id="pre-pricing-link" href="/pricing">Pricing</a>
      <div class="mk-contact__form-slot" data-grove-form-slot="contact">
        <form class="grove-server-form">
          <input name="firstName" value="Siobhán">
          <input name="lastName" value="">
          <input name="captchaToken" value="1.abc.def">
          <input name="captchaAnswer" value="K7PQ2">
        </form>
      </div>
    </div>
    <div id="root" hidden><a id="pricing-link" href="/pricing">Pricing</a></div>`;
}

describe('releasePrerendered', () => {
  it('removes the copy and its stylesheet and shows the live page', () => {
    pageWithCopy();
    releasePrerendered();
    expect(document.getElementById('grove-prerendered')).toBeNull();
    expect(document.getElementById('grove-prerendered-style')).toBeNull();
    expect(document.getElementById('root')?.hasAttribute('hidden')).toBe(false);
  });

  it('hands the focus to the live twin of the element focused in the copy', () => {
    pageWithCopy();
    document.getElementById('pre-pricing-link')?.focus();
    releasePrerendered();
    expect(document.activeElement?.id).toBe('pricing-link');
  });

  it('keeps what was typed into the API’s form for the live one, once, without its captcha', () => {
    pageWithCopy();
    releasePrerendered();
    expect(takeCarriedForm('contact')).toEqual({
      values: { firstName: 'Siobhán' },
      invalid: false,
    });
    expect(takeCarriedForm('contact')).toEqual({ values: {}, invalid: false });
  });

  it('says when the API’s form showed field messages', () => {
    pageWithCopy();
    document.querySelector('input[name="firstName"]')?.setAttribute('aria-invalid', 'true');
    releasePrerendered();
    expect(takeCarriedForm('contact').invalid).toBe(true);
  });
});
