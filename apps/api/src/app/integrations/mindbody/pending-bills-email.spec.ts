import { businessLocale } from '@grove/contracts';
import { pendingBillsEmail } from './pending-bills-email';
import { STRIPE_HELD_BILLS } from '../stripe-members/held-bills';

const owner = {
  email: 'siobhan@example.com',
  firstName: 'Siobhán',
  businessName: 'O’Connor’s Gym',
  businessLocale: businessLocale('AU', 'Australia/Sydney'),
};

describe('pendingBillsEmail (issue 31: bills held for the owner’s review)', () => {
  it('says how many bills would change, that none changed, and links to the Mindbody page', () => {
    const mail = pendingBillsEmail(owner, 3, 'https://grove.example.com');
    expect(mail.to).toBe('siobhan@example.com');
    expect(mail.subject).toBe('3 bills would change in Mindbody: review');
    expect(mail.text).toContain('Hello Siobhán,');
    expect(mail.text).toContain(
      "Mindbody told Grove of changes at O’Connor’s Gym. With your referral discounts, 3 members' bills in Mindbody would change.",
    );
    expect(mail.text).toContain('Grove has not changed any bill');
    expect(mail.text).toContain('Review them: https://grove.example.com/mindbody-setup');
  });

  it('counts one bill and thousands in words', () => {
    expect(pendingBillsEmail(owner, 1, 'https://g.example').subject).toBe(
      '1 bill would change in Mindbody: review',
    );
    expect(pendingBillsEmail(owner, 1, 'https://g.example').text).toContain(
      "1 member's bill in Mindbody would change",
    );
    expect(pendingBillsEmail(owner, 1409, 'https://g.example').subject).toBe(
      '1,409 bills would change in Mindbody: review',
    );
  });

  it("writes counts the business's way: a German gym groups thousands with a dot", () => {
    const german = { ...owner, businessLocale: businessLocale('DE', 'Europe/Berlin') };
    const mail = pendingBillsEmail(german, 12_409, 'https://g.example', STRIPE_HELD_BILLS);
    expect(mail.subject).toBe('12.409 bills would change in Stripe: review');
    expect(mail.text).toContain("12.409 members' bills in Stripe would change");
  });

  it("names Stripe and links to the Stripe Billing page for a gym's Stripe bills (issue 32)", () => {
    const mail = pendingBillsEmail(owner, 2, 'https://grove.example.com', STRIPE_HELD_BILLS);
    expect(mail.subject).toBe('2 bills would change in Stripe: review');
    expect(mail.text).toContain(
      "Stripe told Grove of changes at O’Connor’s Gym. With your referral discounts, 2 members' bills in Stripe would change.",
    );
    expect(mail.text).toContain('nothing reaches Stripe until you review the changes');
    expect(mail.text).toContain('Review them: https://grove.example.com/stripe-setup');
    expect(mail.text).not.toContain('Mindbody');
  });
});
