import type { AnalyticsPeriodError } from '@grove/contracts';
import { FieldErrorsException } from '../../platform/common/grove.exception';

/**
 * The analytics period query breaks the period rule (contracts' `resolveAnalyticsPeriod`: a
 * preset of 30/90/365 days, or real `YYYY-MM-DD` dates from ≤ to ≤ today, at most
 * `ANALYTICS_MAX_DAYS` days). → 400 `{ message, fieldErrors: { <field>: message } }`.
 */
export class AnalyticsPeriodException extends FieldErrorsException {
  constructor(error: AnalyticsPeriodError) {
    super({ [error.field]: error.message }, error.message);
  }
}
