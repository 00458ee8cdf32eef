import { act, waitFor } from '@testing-library/react';
import { http } from '@grove/web-testing';

/**
 * For component tests of forms with {@link FormCaptcha} (jsdom, with `./load-altcha` mocked):
 * solves the captcha as the altcha widget reports it, a `statechange` to 'verified' with `payload`.
 */
export async function solveCaptcha(payload = 'solved-payload'): Promise<void> {
  const widget = await waitFor(() => {
    const element = document.querySelector('altcha-widget');
    if (!element) throw new Error('no captcha yet');
    return element;
  });
  act(() => {
    widget.dispatchEvent(
      new CustomEvent('statechange', { detail: { state: 'verified', payload } }),
    );
  });
}

/**
 * The fake API's `GET /api/captcha` for forms with {@link FormCaptcha}: the self-hosted altcha
 * (`./load-altcha` mocked, so the widget never fetches a challenge and none is given).
 */
export const altchaConfig = () =>
  http.get('/captcha', ({ response }) => response(200).json({ provider: 'altcha' }));
