import { IsOptional, IsString, MinLength } from 'class-validator';

/** The outgoing email environment variables. */
export class MailEnv {
  /** `smtp://user:pass@host:port` or `smtps://…`; unset = emails go to the `outbox_emails` table. */
  @IsString()
  @IsOptional()
  SMTP_URL?: string;

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
