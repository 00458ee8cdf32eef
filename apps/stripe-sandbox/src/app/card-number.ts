/** What the sandbox's Checkout does with a card number (https://docs.stripe.com/testing#cards). */
export type CardOutcome = 'succeeds' | 'declined' | 'invalid';

/** Test cards Stripe always declines (`card_declined`), digits only. */
const DECLINED = new Set(['4000000000000002', '4000000000009995']);

/**
 * The outcome of paying with `text` (spaces and dashes allowed): 'invalid' unless 12–19 digits
 * passing the Luhn check; 'declined' for Stripe's decline test cards; else 'succeeds'.
 */
export function cardOutcome(text: string): CardOutcome {
  const digits = text.replace(/[\s-]/g, '');
  if (!/^[0-9]{12,19}$/.test(digits)) return 'invalid';
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  if (sum % 10 !== 0) return 'invalid';
  return DECLINED.has(digits) ? 'declined' : 'succeeds';
}
