import {
  PRERENDERED_ELEMENT_ID,
  PRERENDERED_FORM_SLOT,
  PRERENDERED_STYLE_ID,
} from '@grove/contracts';

/** What the prerendered copy's element ids start with (the live page's ids stay the components'). */
export const PRERENDERED_ID_PREFIX = 'pre-';

/** Fields of a form the API renders that are its own (the image captcha), never carried over. */
const NOT_CARRIED = new Set(['captchaToken', 'captchaAnswer']);

/** What the visitor typed into a form of the prerendered copy, and whether it showed errors. */
export interface CarriedForm {
  /** Field name → text (empty fields and the API's captcha left out). */
  values: Record<string, string>;
  /** True when the form was the API's answer with field messages or a failure in it. */
  invalid: boolean;
}

/** What the visitor typed into the API's forms of the prerendered copy, by form name. */
const carried = new Map<string, CarriedForm>();

/**
 * What the visitor typed into the prerendered page's form `name` (the API's form without
 * JavaScript, in its PRERENDERED_FORM_SLOT) before the live page replaced it; given once, nothing
 * (`{ values: {}, invalid: false }`) after.
 */
export function takeCarriedForm(name: string): CarriedForm {
  const form = carried.get(name) ?? { values: {}, invalid: false };
  carried.delete(name);
  return form;
}

/** Keeps the typed values of each form of `prerendered`'s form slots for takeCarriedForm. */
function carryFormValues(prerendered: HTMLElement): void {
  for (const slot of prerendered.querySelectorAll<HTMLElement>(`[${PRERENDERED_FORM_SLOT}]`)) {
    const form = slot.querySelector('form');
    if (!form) continue;
    const values: Record<string, string> = {};
    for (const [field, value] of new FormData(form)) {
      if (typeof value === 'string' && value && !NOT_CARRIED.has(field)) values[field] = value;
    }
    const invalid = form.querySelector('[aria-invalid="true"], [role="alert"]') !== null;
    carried.set(slot.getAttribute(PRERENDERED_FORM_SLOT) ?? '', { values, invalid });
  }
}

/**
 * Swaps the page the API sent prerendered (`#grove-prerendered`, docs/architecture.md#prerendered-pages)
 * for the live one: removes it and its inline stylesheet (the app's own stylesheets have loaded by
 * then) and shows the shell's `#root`, which the API sent hidden. Called in a layout effect once
 * the remote's page has rendered, so both happen before the next paint (no flash; the markup is
 * the same, so nothing moves). The app's JavaScript arrives on the visitor's first use of the page
 * (the API's loader), so what they were doing carries over: the element they focused hands its
 * focus to its live twin (the same id without PRERENDERED_ID_PREFIX), and what they typed into a
 * form the API rendered is kept for the live form (takeCarriedForm). Does nothing on a page
 * sent without one.
 */
export function releasePrerendered(doc: Document = document): void {
  const prerendered = doc.getElementById(PRERENDERED_ELEMENT_ID);
  if (!prerendered) return;
  const focused = doc.activeElement;
  const focusedId = focused && prerendered.contains(focused) ? focused.id : '';
  carryFormValues(prerendered);
  prerendered.remove();
  doc.getElementById(PRERENDERED_STYLE_ID)?.remove();
  doc.getElementById('root')?.removeAttribute('hidden');
  if (focusedId.startsWith(PRERENDERED_ID_PREFIX))
    doc.getElementById(focusedId.slice(PRERENDERED_ID_PREFIX.length))?.focus();
}
