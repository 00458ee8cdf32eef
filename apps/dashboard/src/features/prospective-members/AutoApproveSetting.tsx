import { Alert } from '@grove/web-ui';
import { useRoleMay } from '@grove/web-data-access';
import { useProspectSettings, useSaveProspectSettings } from './api/prospects';

/**
 * 'Approve automatically' on Prospective Members (issue 15; off by default): when on, a friend
 * whose join raised no fraud signal becomes a branch and a tree at once, at the referrer's
 * membership price and discount; one with a signal still waits here with its reasons.
 */
export function AutoApproveSetting() {
  const settings = useProspectSettings();
  const save = useSaveProspectSettings();
  // A business setting (`PUT /api/settings/prospects`: owners and managers).
  const mayManage = useRoleMay('manage');
  if (!settings.data || !mayManage) return null;
  return (
    <div className="dash-auto-approve">
      <label className="dash-emails__option">
        <input
          type="checkbox"
          checked={settings.data.autoApprove}
          disabled={save.isPending}
          onChange={(event) => save.mutate({ autoApprove: event.target.checked })}
        />
        <span>
          <span className="dash-emails__label">Approve automatically</span>
          <span className="dash-emails__example g-muted">
            Friends who pass every check become branches at once, at their referrer’s price and
            discount. Anyone flagged still waits here for you.
          </span>
        </span>
      </label>
      {save.isError && <Alert>{save.error.message}</Alert>}
    </div>
  );
}
