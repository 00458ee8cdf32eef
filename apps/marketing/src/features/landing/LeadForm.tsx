import {
  DEFAULT_COUNTRY,
  validateLeadInput,
  type LeadInput,
  type LeadRequest,
} from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { useCreateLead } from './api/leads';
import { Alert, Button, TextField } from '@grove/web-ui';
import { FormCaptcha, useFormCaptcha } from '../../components/captcha/FormCaptcha';
import { CountryPhoneFields } from '../../components/country-phone/CountryPhoneFields';

const emptyLead: LeadRequest = {
  fullName: '',
  email: '',
  country: DEFAULT_COUNTRY,
  phone: '',
  company: '',
  captcha: '',
};

/** Server field names that map onto this form's fields (the captcha has no field message). */
const leadFields = (Object.keys(emptyLead) as (keyof LeadRequest)[]).filter(
  (field): field is keyof LeadInput => field !== 'captcha',
);

/**
 * The 'Learn More' pop-up's form (docs/product.md#landing-page Landing page): fullName, email, country
 * (Australia unless changed; the phone is read for it, docs/product.md#country), phone and company,
 * checked with contracts' `validateLeadInput` as the API does ('Not a valid name', 'Not a valid
 * email address', 'Not a valid phone number', company required / ≤ 200), and the contact form's
 * captcha ('Please complete the captcha'). Sends `POST /api/leads`; on success shows the server's
 * message in place of the form, on failure the error's message above the form and, unless only
 * fields were refused, a fresh captcha.
 * Lazy-loaded when the pop-up opens, so the landing page does not pay for phone validation or
 * the captcha.
 */
export function LeadForm({ onDone }: { onDone: () => void }) {
  const lead = useCreateLead();
  const form = useContractForm(validateLeadInput, {
    defaultValues: emptyLead,
    mode: 'onTouched',
    trim: leadFields,
    fields: leadFields,
    onSubmit: (body) => lead.mutateAsync(body),
    onError: (error) => {
      captcha.resetAfterError(error);
    },
  });
  const { submit, field } = form;
  const captcha = useFormCaptcha(form);

  if (lead.isSuccess) {
    return (
      <div className="mk-lead-done">
        <Alert tone="success">{lead.data.message}</Alert>
        <Button onClick={onDone}>Close</Button>
      </div>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="mk-lead-form" aria-describedby="lead-intro">
      <p id="lead-intro" className="g-muted mk-lead-form__intro">
        Leave your details and we will show you how Grove can grow your gym.
      </p>
      {lead.isError && <Alert>{lead.error.message}</Alert>}
      <TextField label="Full name" autoComplete="name" {...field('fullName')} />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        {...field('email')}
      />
      <CountryPhoneFields<LeadRequest> form={form} phone="phone" />
      <TextField label="Company" autoComplete="organization" {...field('company')} />
      <FormCaptcha {...captcha.props} />
      <Button type="submit" busy={lead.isPending} className="mk-btn--block">
        Send
      </Button>
    </form>
  );
}
