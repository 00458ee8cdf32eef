import { apiUrl } from '@grove/api-contract';
import { isValidEmail, isValidName, JOIN_PAGE_IDS as IDS, MESSAGES } from '@grove/contracts';

/**
 * The join page's interactive layer (docs/architecture.md#join-page). The API renders the whole
 * page, form included, and the form works without JavaScript (a plain POST answered by a page).
 * This script, inlined at the end of that page, only takes over the submit: it checks Name and
 * Email with the same rules and messages as the API (`@grove/contracts`), sends
 * `POST /api/referrals/:code/join` and shows 'Successfully registered!' (or the failure text) in
 * place, without a new page. It never re-renders what the server sent, so nothing flashes.
 */
function enhance(): void {
  const form = document.getElementById(IDS.form);
  if (!(form instanceof HTMLFormElement)) return;
  const code = form.dataset['code'] ?? '';
  const button = form.querySelector('button[type="submit"]');
  const fields = {
    name: {
      input: document.getElementById(IDS.name),
      valid: isValidName,
      message: MESSAGES.invalidName,
    },
    email: {
      input: document.getElementById(IDS.email),
      valid: isValidEmail,
      message: MESSAGES.invalidEmail,
    },
  };
  const trap = document.getElementById(IDS.website);
  const via = document.getElementById(IDS.via);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (button instanceof HTMLButtonElement && button.disabled) return;
    let firstInvalid: HTMLInputElement | null = null;
    for (const field of Object.values(fields)) {
      if (!(field.input instanceof HTMLInputElement)) return;
      const error = field.valid(field.input.value) ? undefined : field.message;
      showFieldError(field.input, error);
      if (error && !firstInvalid) firstInvalid = field.input;
    }
    if (firstInvalid) {
      firstInvalid.focus();
      return;
    }
    void send(form, code, button instanceof HTMLButtonElement ? button : null, {
      name: (fields.name.input as HTMLInputElement).value.trim(),
      email: (fields.email.input as HTMLInputElement).value.trim(),
      website: trap instanceof HTMLInputElement ? trap.value : '',
      via: via instanceof HTMLInputElement ? via.value : 'direct',
    });
  });
}

/** Shows (or clears) a field's message the way the server renders it: announced, under the field. */
function showFieldError(input: HTMLInputElement, message: string | undefined): void {
  const id = `${input.id}-error`;
  let box = document.getElementById(id);
  if (!message) {
    box?.remove();
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
    return;
  }
  if (!box) {
    box = document.createElement('div');
    box.id = id;
    box.className = 'g-field__error';
    input.after(box);
  }
  box.textContent = message;
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', id);
}

/** Sends the join; success replaces the form with the product's text, failure shows it above. */
async function send(
  form: HTMLFormElement,
  code: string,
  button: HTMLButtonElement | null,
  body: { name: string; email: string; website: string; via: string },
): Promise<void> {
  setBusy(button, true);
  let ok = false;
  try {
    const response = await fetch(apiUrl('/referrals/{code}/join', { code }), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    });
    ok = response.ok;
  } catch {
    ok = false;
  }
  setBusy(button, false);
  const state = document.getElementById(IDS.state);
  if (ok && state) {
    // The welcome offer's line of the success page (docs/product.md#welcome-offer), as the server writes it.
    const welcomeNext = form.dataset['welcomeNext'];
    const offer = welcomeNext ? document.createElement('p') : null;
    if (offer && welcomeNext) {
      offer.className = 'referral-join__welcome-next';
      offer.dataset['testid'] = 'welcome-offer-next';
      offer.textContent = welcomeNext;
    }
    state.replaceChildren(alertBox('success', MESSAGES.referralSuccess), ...(offer ? [offer] : []));
    return;
  }
  document.getElementById(IDS.failure)?.remove();
  const failure = alertBox('error', MESSAGES.referralFailed);
  failure.id = IDS.failure;
  form.before(failure);
}

function setBusy(button: HTMLButtonElement | null, busy: boolean): void {
  if (!button) return;
  button.disabled = busy;
  if (busy) button.setAttribute('aria-busy', 'true');
  else button.removeAttribute('aria-busy');
}

/** The design system's Alert (`@grove/web-ui`), as the server renders it. */
function alertBox(tone: 'success' | 'error', text: string): HTMLElement {
  const box = document.createElement('div');
  box.className = `g-alert g-alert--${tone}`;
  box.setAttribute('role', tone === 'error' ? 'alert' : 'status');
  box.textContent = text;
  return box;
}

enhance();
