import { GroveException } from '../common/grove.exception';

/** The issue form broke a rule (SPEC §5: both fields required). → 400 with `fieldErrors`. */
export class SupportIssueInvalidException extends GroveException {
  constructor(fieldErrors: Record<string, string>) {
    super(Object.values(fieldErrors)[0] ?? 'Invalid request', fieldErrors);
  }
}
