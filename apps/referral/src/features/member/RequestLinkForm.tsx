import { validateMemberLinkRequest, type MemberLinkRequest } from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, TextField } from '@grove/web-ui';
import { useRequestMemberLink } from './api/member';

/**
 * "Send me a new link": the member's email → `POST /api/member/magic-link`. The answer is the
 * same whether or not the email belongs to a member, shown in place of the form.
 */
export function RequestLinkForm() {
  const request = useRequestMemberLink();
  const form = useContractForm<MemberLinkRequest>(validateMemberLinkRequest, {
    defaultValues: { email: '' },
    mode: 'onTouched',
    trim: ['email'],
    fields: ['email'],
    onSubmit: (body) => request.mutateAsync(body),
  });
  if (request.isSuccess) return <Alert tone="success">{request.data.message}</Alert>;
  return (
    <form onSubmit={form.submit} noValidate className="member-request" aria-label="New link">
      {request.isError && <Alert>{request.error.message}</Alert>}
      <TextField
        label="Your email"
        type="email"
        autoComplete="email"
        inputMode="email"
        {...form.field('email')}
      />
      <Button type="submit" busy={request.isPending} className="member-block">
        Send me a new link
      </Button>
    </form>
  );
}
