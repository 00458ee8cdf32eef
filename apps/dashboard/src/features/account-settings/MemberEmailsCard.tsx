import {
  MEMBER_EMAIL_SETTING_TEXT,
  memberEmailExample,
  type MemberEmailSetting,
} from '@grove/contracts';
import { Alert, Card, Spinner, useTimedMessage } from '@grove/web-ui';
import { useMemberEmailSettings, useSaveMemberEmailSettings } from './api/member-emails';

/**
 * 'Emails to members' on Account Settings (issue 15 part 2): the owner chooses which event emails
 * Grove sends their members in the business's name: a friend joined with their link, a friend
 * approved (their new price), a branch that stopped counting (their price back), and a welcome to
 * the approved friend. Each box saves at once (`PUT /api/settings/member-emails`) and says 'Saved';
 * all are on until turned off. Members can unsubscribe from every email themselves. The examples
 * name the owner's own business (`businessName`).
 */
export function MemberEmailsCard({ businessName }: { businessName?: string } = {}) {
  const settings = useMemberEmailSettings();
  const save = useSaveMemberEmailSettings();
  const [saved, setSaved] = useTimedMessage();

  const toggle = async (key: MemberEmailSetting, on: boolean) => {
    if (!settings.data) return;
    setSaved(null);
    await save.mutateAsync({ ...settings.data, [key]: on });
    setSaved('Saved');
  };

  return (
    <Card>
      <h2 className="dash-account__title" id="member-emails-title">
        Emails to members
      </h2>
      <p className="g-muted dash-account__lead">
        Grove emails your members in your business’s name when something happens to their referrals.
        Members can unsubscribe at any time.
      </p>
      {settings.isError ? (
        <Alert>{settings.error.message}</Alert>
      ) : !settings.data ? (
        <Spinner label="Loading your email settings…" />
      ) : (
        <fieldset
          className="dash-emails"
          aria-labelledby="member-emails-title"
          disabled={save.isPending}
        >
          {MEMBER_EMAIL_SETTING_TEXT.map(({ key, label, example }) => (
            <label key={key} className="dash-emails__option">
              <input
                type="checkbox"
                checked={settings.data?.[key] ?? true}
                onChange={(event) => void toggle(key, event.target.checked).catch(() => undefined)}
              />
              <span>
                <span className="dash-emails__label">{label}</span>
                <span className="dash-emails__example g-muted">
                  {memberEmailExample(example, businessName)}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {save.isError && <Alert>{save.error.message}</Alert>}
      {saved && <Alert tone="success">{saved}</Alert>}
    </Card>
  );
}
