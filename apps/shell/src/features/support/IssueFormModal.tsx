import { useState } from 'react';
import {
  MESSAGES,
  SUPPORT_DESCRIPTION_MAX_LENGTH,
  SUPPORT_SUMMARY_MAX_LENGTH,
  validateSupportIssueInput,
  type SupportIssueRequest,
} from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { useSubmitSupportIssue } from './api/support';
import { Alert, Button, Modal, TextArea, TextField } from '@grove/web-ui';
import './support.css';

/** Props of {@link IssueFormModal}. */
export interface IssueFormModalProps {
  open: boolean;
  onClose: () => void;
}

const emptyIssue: SupportIssueRequest = { summary: '', description: '' };

/** Server field names that map onto this form's fields. */
const issueFields = Object.keys(emptyIssue) as (keyof SupportIssueRequest)[];

/**
 * The issue form behind the sidebar's 'Contact Support' button (docs/product.md#issue-form Issue form): 'Issue
 * title' and 'Issue Description', both required (contracts' rules: at most 200 and 5000
 * characters), and Submit. Success shows 'Successfully submitted request!' and clears the form;
 * a failure shows 'Failed to send! Please try again.' and keeps what was typed.
 */
export function IssueFormModal({ open, onClose }: IssueFormModalProps) {
  const submitIssue = useSubmitSupportIssue();
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const {
    submit,
    field,
    reset,
    formState: { isSubmitting },
  } = useContractForm(validateSupportIssueInput, {
    defaultValues: emptyIssue,
    trim: issueFields,
    fields: issueFields,
    onSubmit: async (values) => {
      setResult(null);
      await submitIssue.mutateAsync(values);
      reset(emptyIssue);
      setResult({ tone: 'success', text: MESSAGES.supportSuccess });
    },
    onError: () => setResult({ tone: 'error', text: MESSAGES.supportFailed }),
  });

  const close = () => {
    setResult(null);
    onClose();
  };

  return (
    <Modal open={open} title="Contact Support" onClose={close}>
      <p className="g-muted shell-issue__lead">Tell us what went wrong and we will look into it.</p>
      {result && <Alert tone={result.tone}>{result.text}</Alert>}
      <form onSubmit={submit} noValidate aria-label="Report an issue">
        <TextField
          label="Issue title"
          autoComplete="off"
          maxLength={SUPPORT_SUMMARY_MAX_LENGTH}
          {...field('summary')}
        />
        <TextArea
          label="Issue Description"
          rows={6}
          maxLength={SUPPORT_DESCRIPTION_MAX_LENGTH}
          {...field('description')}
        />
        <Button type="submit" busy={isSubmitting} className="shell-issue__submit">
          Submit
        </Button>
      </form>
    </Modal>
  );
}
