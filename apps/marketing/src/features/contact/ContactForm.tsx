import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  CONTACT_MESSAGE_MAX_LENGTH,
  MESSAGES,
  validateContactInput,
  type ContactInput,
} from '@grove/contracts';
import { ApiError, applyFieldErrors, fieldRules } from '@grove/web-data-access';
import { useSendContactMessage } from './api/contact';
import { Alert, Button, Card, Modal, TextArea, TextField, useTimedMessage } from '@grove/web-ui';
import { FormCaptcha, useFormCaptcha } from '../../components/captcha/FormCaptcha';

/** The form's values: docs/product.md#entities "Contact message" fields plus the captcha's solution. */
type ContactFormValues = ContactInput & { captcha: string };

const emptyForm: ContactFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  phoneNumber: '',
  website: '',
  message: '',
  captcha: '',
};

/** Server field names that map onto this form's fields (the captcha has no field message). */
const contactFields = (Object.keys(emptyForm) as (keyof ContactFormValues)[]).filter(
  (field): field is keyof ContactInput => field !== 'captcha',
);

/** react-hook-form rule for a field: exactly the contracts' check and message (as the API runs it). */
const rule = fieldRules<ContactFormValues>(validateContactInput);

/**
 * The contact form (docs/product.md#contact-page, docs/product.md#states, docs/product.md#validation-contact): First Name, Last Name, Email, Phone (Australian mobile),
 * Company Website, Message with a live x/500 counter (typing stops at 500), a captcha and Submit.
 * Field errors show under each field; while sending the button is busy; success opens the 'Thank
 * you' dialog and resets the form and captcha; a failure shows the server's message for 3 seconds.
 */
export function ContactForm() {
  const send = useSendContactMessage();
  const [sent, setSent] = useState(false);
  // docs/product.md#states, docs/product.md#constants: a failed send's message stays on screen for 3 seconds.
  const [failure, setFailure] = useTimedMessage();
  const form = useForm<ContactFormValues>({ defaultValues: emptyForm });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = form;
  // A reset gives the captcha a new challenge, so a used or rejected solution is never sent twice.
  const { props: captchaProps, reset: resetCaptcha } = useFormCaptcha(form);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await send.mutateAsync({
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        email: values.email.trim(),
        phoneNumber: values.phoneNumber.trim(),
        website: values.website.trim(),
        message: values.message.trim(),
        captcha: values.captcha,
      });
      reset(emptyForm);
      resetCaptcha();
      setSent(true);
    } catch (error) {
      const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};
      applyFieldErrors(error, setError, contactFields);
      // Input errors are checked before the captcha; anything else may have used up the solution.
      if (!Object.keys(fieldErrors).length || 'captcha' in fieldErrors) resetCaptcha();
      setFailure(error instanceof Error ? error.message : MESSAGES.contactFailed);
    }
  });

  const messageLength = (watch('message') ?? '').length;

  return (
    <>
      <Card className="mk-contact__card">
        <form onSubmit={submit} noValidate aria-label="Contact us">
          <div className="mk-contact__row">
            <TextField
              label="First Name"
              autoComplete="given-name"
              error={errors.firstName?.message}
              {...register('firstName', { validate: rule('firstName') })}
            />
            <TextField
              label="Last Name"
              autoComplete="family-name"
              error={errors.lastName?.message}
              {...register('lastName', { validate: rule('lastName') })}
            />
          </div>
          <div className="mk-contact__row">
            <TextField
              label="Email"
              type="email"
              autoComplete="email"
              error={errors.email?.message}
              {...register('email', { validate: rule('email') })}
            />
            <TextField
              label="Phone"
              type="tel"
              autoComplete="tel"
              placeholder="0412 345 678"
              error={errors.phoneNumber?.message}
              {...register('phoneNumber', { validate: rule('phoneNumber') })}
            />
          </div>
          <TextField
            label="Company Website"
            type="url"
            autoComplete="url"
            placeholder="yourgym.com.au"
            error={errors.website?.message}
            {...register('website', { validate: rule('website') })}
          />
          <TextArea
            label="Message"
            maxLength={CONTACT_MESSAGE_MAX_LENGTH}
            rows={6}
            hint={`${messageLength}/${CONTACT_MESSAGE_MAX_LENGTH}`}
            error={errors.message?.message}
            {...register('message', { validate: rule('message') })}
          />
          <FormCaptcha {...captchaProps} />
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
