import {
  CONTACT_MESSAGE_MAX_LENGTH,
  countryOptions,
  DEFAULT_COUNTRY,
  MESSAGES,
  PRERENDERED_FORM_CLASS,
  PRERENDERED_FORM_SLOT,
  type ContactInput,
} from '@grove/contracts';

/** Where the contact page's form without JavaScript posts (outside `/api`, beside the page). */
export const CONTACT_FORM_ACTION = '/contact/send';

/** What the contact page's form without JavaScript shows. */
export type ContactFormState =
  | {
      kind: 'form';
      values: ContactInput;
      /** Each field's message; `captcha` under the code ('Please complete the captcha'). */
      errors: Partial<Record<keyof ContactInput | 'captcha', string>>;
      /** The form's failure, shown above Submit (a wrong or expired code, too many messages). */
      failure?: string;
      /** The image captcha: its drawing (SVG) and its token. */
      captcha: { svg: string; token: string };
    }
  | { kind: 'sent' };

const escapeHtml = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

/** An empty form: the country is Australia until the visitor chooses another (docs/product.md#country). */
export const emptyContactInput = (): ContactInput => ({
  firstName: '',
  lastName: '',
  email: '',
  country: DEFAULT_COUNTRY,
  phoneNumber: '',
  website: '',
  message: '',
});

/** One labelled field in the design system's markup (`g-field`, as `TextField` draws it). */
function field(
  name: string,
  label: string,
  control: (attributes: string) => string,
  error: string | undefined,
): string {
  const id = `contact-${name}`;
  const attributes = `id="${id}" name="${name}"${
    error ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''
  }`;
  return `<div class="g-field"><label class="g-field__label" for="${id}">${label}</label>${control(
    attributes,
  )}${error ? `<div id="${id}-error" class="g-field__error">${escapeHtml(error)}</div>` : ''}</div>`;
}

const input =
  (value: string, type: string, autocomplete: string) =>
  (attributes: string): string =>
    `<input class="g-field__input" type="${type}" autocomplete="${autocomplete}" value="${escapeHtml(
      value,
    )}" ${attributes}>`;

/**
 * The contact form for a browser without JavaScript (docs/product.md#contact-page,
 * docs/product.md#validation-contact), the fields of the JavaScript form (First Name, Last Name,
 * Email, Country, Phone, Company Website, Message) with the typed values and each field's message
 * under it, an image captcha (a code to type; the JavaScript form's captcha is a proof of work),
 * and Submit; once sent, 'Thank you for your message! We'll be in touch soon.' in its place.
 * Posts `application/x-www-form-urlencoded` to CONTACT_FORM_ACTION.
 */
export function renderContactForm(state: ContactFormState): string {
  if (state.kind === 'sent')
    return `<div class="${PRERENDERED_FORM_CLASS} g-card mk-contact__card" role="status"><h2>Message sent</h2><p class="mk-contact__thanks">${escapeHtml(
      MESSAGES.contactSuccess,
    )}</p></div>`;
  const { values, errors, captcha } = state;
  const country = values.country || DEFAULT_COUNTRY;
  const countries = countryOptions()
    .map(
      (option) =>
        `<option value="${option.code}"${option.code === country ? ' selected' : ''}>${escapeHtml(
          option.name,
        )}</option>`,
    )
    .join('');
  const failure = state.failure
    ? `<div class="g-alert g-alert--error" role="alert">${escapeHtml(state.failure)}</div>`
    : '';
  return [
    `<form class="${PRERENDERED_FORM_CLASS} g-card mk-contact__card" method="post" action="${CONTACT_FORM_ACTION}" aria-label="Contact us" novalidate>`,
    '<div class="mk-contact__row">',
    field(
      'firstName',
      'First Name',
      input(values.firstName, 'text', 'given-name'),
      errors.firstName,
    ),
    field('lastName', 'Last Name', input(values.lastName, 'text', 'family-name'), errors.lastName),
    '</div>',
    field('email', 'Email', input(values.email, 'email', 'email'), errors.email),
    '<div class="mk-contact__row">',
    field(
      'country',
      'Country',
      (attributes) =>
        `<select class="g-field__input" autocomplete="country" ${attributes}>${countries}</select>`,
      errors.country,
    ),
    field('phoneNumber', 'Phone', input(values.phoneNumber, 'tel', 'tel'), errors.phoneNumber),
    '</div>',
    field('website', 'Company Website', input(values.website, 'url', 'url'), errors.website),
    field(
      'message',
      'Message',
      (attributes) =>
        `<textarea class="g-field__input" rows="6" maxlength="${CONTACT_MESSAGE_MAX_LENGTH}" ${attributes}>${escapeHtml(
          values.message,
        )}</textarea>`,
      errors.message,
    ),
    `<div class="grove-server-form__captcha" role="img" aria-label="A code of letters and digits to type below">${captcha.svg}</div>`,
    `<input type="hidden" name="captchaToken" value="${escapeHtml(captcha.token)}">`,
    field('captchaAnswer', 'Type the code shown above', input('', 'text', 'off'), errors.captcha),
    failure,
    '<button type="submit" class="g-btn g-btn--primary mk-contact__submit">Submit</button>',
    '</form>',
  ].join('');
}

/**
 * The contact page's HTML (the shell's page with the marketing remote's prerendered contact page)
 * with `form` put first into its PRERENDERED_FORM_SLOT element; the page as it is when it has none
 * (no prerendered page: the JavaScript form then renders as before).
 */
export function withContactForm(page: string, form: string): string {
  const slot = new RegExp(`<div[^>]*\\b${PRERENDERED_FORM_SLOT}="contact"[^>]*>`);
  return page.replace(slot, (opening) => opening + form);
}
