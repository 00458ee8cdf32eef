import { EnvBool } from '../common/config/env-section';
import { IsOptional, IsString, MinLength } from 'class-validator';

/** The outgoing email environment variables. */
export class MailEnv {
  /**
   * `smtp://user:pass@host:port` or `smtps://…`; unset = emails go to the `outbox_emails` table.
   * Required in production unless MAIL_OUTBOX_ONLY (`productionMailProblems`).
   */
  @IsString()
  @IsOptional()
  SMTP_URL?: string;

  /**
   * True: no SMTP on purpose, every email stays in `outbox_emails` (a deployment that reads the
   * outbox itself). Lets production start without SMTP_URL.
   */
  @EnvBool()
  @IsOptional()
  MAIL_OUTBOX_ONLY?: boolean;

  /** Sender of Grove's emails. */
  @IsString()
  @MinLength(3)
  MAIL_FROM = 'Grove <no-reply@grove.local>';

  /** Who receives contact messages and leads. */
  @IsString()
  @MinLength(3)
  CONTACT_RECIPIENT = 'hello@grove.local';
}

/** Outgoing email (contact messages, leads). */
export interface MailSettings {
  /** SMTP connection URL, or null to keep emails in the `outbox_emails` table. */
  smtpUrl: string | null;
  from: string;
  contactRecipient: string;
}

/** `AppConfig.mail` from the validated variables. */
export function readMailConfig(vars: MailEnv): { mail: MailSettings } {
  return {
    mail: {
      smtpUrl: vars.SMTP_URL ?? null,
      from: vars.MAIL_FROM,
      contactRecipient: vars.CONTACT_RECIPIENT,
    },
  };
}

/**
 * What a production start lacks among the mail variables (issue 31 item 6): without SMTP_URL,
 * password reset and sign-in links would wait in `outbox_emails` in plain text while people are
 * told they are on their way.
 * @param production true when NODE_ENV=production
 * @returns one line per problem; empty when fit for production (or not production)
 */
export function productionMailProblems(vars: MailEnv, production: boolean): string[] {
  if (!production || vars.SMTP_URL || vars.MAIL_OUTBOX_ONLY) return [];
  return [
    'SMTP_URL is required when NODE_ENV=production (password reset and sign-in links are emailed), e.g. smtps://user:password@smtp.example.com:465; set MAIL_OUTBOX_ONLY=true to keep every email in outbox_emails on purpose',
  ];
}
