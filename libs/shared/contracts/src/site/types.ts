import type { Schema } from '@grove/api-contract';

/** `POST /api/contact` body (public, docs/product.md#entities "Contact message"); `captcha` = the widget's solution/token. */
export type ContactRequest = Schema<'ContactDto'>;

/** `POST /api/leads` body: the pop-up's fields and `captcha`, the captcha widget's solution/token. */
export type LeadRequest = Schema<'LeadDto'>;

/** The landing page's 'Learn More' pop-up fields (public, `POST /api/leads`). */
export type LeadInput = Omit<LeadRequest, 'captcha'>;
