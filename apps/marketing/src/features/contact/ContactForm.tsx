import { useEffect, useState } from 'react';
import {
  CONTACT_MESSAGE_MAX_LENGTH,
  DEFAULT_COUNTRY,
  MESSAGES,
  validateContactInput,
  type ContactInput,
} from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { useSendContactMessage } from './api/contact';
import { Alert, Button, Card, Modal, TextArea, TextField, useTimedMessage } from '@grove/web-ui';
import { FormCaptcha, useFormCaptcha } from '../../components/captcha/FormCaptcha';
import { CountryPhoneFields } from '../../components/country-phone/CountryPhoneFields';
import { takeCarriedForm } from '../../prerender/release-prerendered';

/** The form's values: docs/product.md#entities "Contact message" fields plus the captcha's solution. */
type ContactFormValues = ContactInput & { captcha: string };

/** An empty form; the country is Australia until the visitor chooses another (docs/product.md#country). */
const emptyForm = (): ContactFormValues => ({
  firstName: '',
  lastName: '',
  email: '',
  country: DEFAULT_COUNTRY,
  phoneNumber: '',
  website: '',
  message: '',
  captcha: '',
});

/**
 * An empty form with what the visitor typed into the prerendered page's form without JavaScript
 * before this one replaced it (only this form's own fields), and whether that form showed errors.
 */
function initialForm(): { values: ContactFormValues; invalid: boolean } {
  const typed = takeCarriedForm('contact');
  const values = emptyForm();
  for (const field of contactFields) if (typed.values[field]) values[field] = typed.values[field];
  return { values, invalid: typed.invalid };
}

/** Server field names that map onto this form's fields (the captcha has no field message). */
const contactFields = (Object.keys(emptyForm()) as (keyof ContactFormValues)[]).filter(
  (field): field is keyof ContactInput => field !== 'captcha',
);

/**
 * The contact form (docs/product.md#contact-page, docs/product.md#states, docs/product.md#validation-contact): First Name, Last Name, Email, Country and Phone (any
 * valid number for that country, or in international format: docs/product.md#country), Company Website, Message with a live x/500 counter (typing stops at 500), a captcha and Submit.
 * Field errors show under each field; while sending the button is busy; success opens the 'Thank
 * you' dialog and resets the form and captcha; a failure shows the server's message for 3 seconds.
 */
export function ContactForm() {
  const send = useSendContactMessage();
  const [sent, setSent] = useState(false);
  // docs/product.md#states, docs/product.md#constants: a failed send's message stays on screen for 3 seconds.
  const [failure, setFailure] = useTimedMessage();
  const [initial] = useState(initialForm);
  const form = useContractForm(validateContactInput, {
    defaultValues: initial.values,
    trim: contactFields,
    fields: contactFields,
    onSubmit: async (values) => {
      setFailure(null);
      await send.mutateAsync(values);
      reset(emptyForm());
      captcha.reset();
      setSent(true);
    },
    onError: (error) => {
      captcha.resetAfterError(error);
      setFailure(error instanceof Error ? error.message : MESSAGES.contactFailed);
    },
  });
  const {
    submit,
    field,
    reset,
    watch,
    formState: { isSubmitting },
  } = form;
  // A reset gives the captcha a new challenge, so a used or rejected solution is never sent twice.
  const captcha = useFormCaptcha(form);

  // The form without JavaScript it replaced showed field messages: show this form's at once.
  const { trigger } = form;
  useEffect(() => {
    if (initial.invalid) void trigger();
  }, [initial.invalid, trigger]);

  const messageLength = (watch('message') ?? '').length;

  return (
    <>
      <Card className="mk-contact__card">
        <form onSubmit={submit} noValidate aria-label="Contact us">
          <div className="mk-contact__row">
            <TextField label="First Name" autoComplete="given-name" {...field('firstName')} />
            <TextField label="Last Name" autoComplete="family-name" {...field('lastName')} />
          </div>
          <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
          <div className="mk-contact__row">
            <CountryPhoneFields<ContactFormValues> form={form} phone="phoneNumber" />
          </div>
          <TextField
            label="Company Website"
            type="url"
            autoComplete="url"
            placeholder="yourgym.com"
            {...field('website')}
          />
          <TextArea
            label="Message"
            maxLength={CONTACT_MESSAGE_MAX_LENGTH}
            rows={6}
            hint={`${messageLength}/${CONTACT_MESSAGE_MAX_LENGTH}`}
            {...field('message')}
          />
          <FormCaptcha {...captcha.props} />
          {failure && <Alert>{failure}</Alert>}
          <Button type="submit" busy={isSubmitting} className="mk-contact__submit">
            Submit
          </Button>
        </form>
      </Card>
      <Modal open={sent} title="Message sent" onClose={() => setSent(false)}>
        <p className="mk-contact__thanks">{MESSAGES.contactSuccess}</p>
        <div className="mk-contact__modal-actions">
          <Button onClick={() => setSent(false)}>Close</Button>
        </div>
      </Modal>
    </>
  );
}
