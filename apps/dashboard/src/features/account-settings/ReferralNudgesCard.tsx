import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import {
  NUDGE_INVITE_DAYS,
  NUDGE_INVITE_VISITS,
  NUDGE_REMINDER_DAYS,
  NUDGE_SUGGESTED_DAYS,
  NUDGE_SUGGESTED_VISITS,
  REFERRAL_NUDGE_MESSAGES,
  validateReferralNudgeSettings,
  type ReferralNudgeKind,
  type ReferralNudgeSettings,
  type ReferralNudgeSettingsReply,
} from '@grove/contracts';
import { Alert, Button, Card, Spinner, useTimedMessage } from '@grove/web-ui';
import {
  useReferralNudgePreview,
  useReferralNudges,
  useSaveReferralNudges,
} from './api/referral-nudges';

/** When the invitation goes: N days after joining, or after the Nth visit (Mindbody). */
type InviteBy = 'days' | 'visits';

/** The card's form: each nudge on or off, and its days (or visits) as typed. */
interface NudgeForm {
  invite: boolean;
  inviteBy: InviteBy;
  inviteDays: string;
  inviteVisits: string;
  reminder: boolean;
  reminderDays: string;
  summary: boolean;
}

const toForm = (settings: ReferralNudgeSettings): NudgeForm => ({
  invite: settings.inviteAfterDays !== null || (settings.inviteAfterVisits ?? null) !== null,
  inviteBy: (settings.inviteAfterVisits ?? null) !== null ? 'visits' : 'days',
  inviteDays: String(settings.inviteAfterDays ?? NUDGE_SUGGESTED_DAYS.invite),
  inviteVisits: String(settings.inviteAfterVisits ?? NUDGE_SUGGESTED_VISITS),
  reminder: settings.reminderAfterDays !== null,
  reminderDays: String(settings.reminderAfterDays ?? NUDGE_SUGGESTED_DAYS.reminder),
  summary: settings.monthlySummary,
});

/** Days as typed → the API's number ('' or not a number: NaN, refused by the rule). */
const days = (typed: string): number => (typed.trim() === '' ? Number.NaN : Number(typed));

const toSettings = (form: NudgeForm): ReferralNudgeSettings => ({
  inviteAfterDays: form.invite && form.inviteBy === 'days' ? days(form.inviteDays) : null,
  inviteAfterVisits: form.invite && form.inviteBy === 'visits' ? days(form.inviteVisits) : null,
  reminderAfterDays: form.reminder ? days(form.reminderDays) : null,
  monthlySummary: form.summary,
});

/** A count with its noun, singular for 1 ('1 member', '2,000 members'). */
const counted = (count: number, noun: string): string =>
  `${count.toLocaleString('en-AU')} ${noun}${count === 1 ? '' : 's'}`;

/**
 * What the invitation after visits costs in Mindbody calls, beside the choice
 * (docs/product.md#referral-nudges): each watched member is checked once a week, one call each.
 */
export function visitChecksCost(
  reply: Pick<ReferralNudgeSettingsReply, 'visitChecksPerWeek' | 'mindbodyMembers'>,
): string {
  return `Grove checks each Mindbody member’s visits once a week: about ${counted(
    reply.visitChecksPerWeek,
    'Mindbody call',
  )} a week for your ${counted(reply.mindbodyMembers, 'member')}.`;
}

/**
 * One nudge's preview: the real email for a member of the business, in a sandboxed frame (with
 * `visits`, the invitation after that visit).
 */
function NudgePreview({ kind, visits }: { kind: ReferralNudgeKind; visits?: number }) {
  const preview = useReferralNudgePreview(kind, true, visits);
  if (preview.isError) return <Alert>{preview.error.message}</Alert>;
  if (!preview.data) return <Spinner label="Loading the preview…" />;
  return (
    <figure className="dash-nudges__preview" data-testid={`nudge-preview-${kind}`}>
      <figcaption>
        <span className="g-muted">The email {preview.data.memberName} would get</span>
        <br />
        <strong>Subject: {preview.data.subject}</strong>
      </figcaption>
      <iframe
        title={`Preview: ${preview.data.subject}`}
        sandbox=""
        srcDoc={preview.data.html}
        className="dash-nudges__frame"
      />
    </figure>
  );
}

/**
 * One nudge: its switch (usable to switch on only once its email was previewed here), what it
 * does, its days when it has some, and its preview.
 */
function NudgeOption({
  kind,
  label,
  on,
  previewed,
  onToggle,
  onPreview,
  showing,
  previewVisits,
  children,
}: {
  kind: ReferralNudgeKind;
  label: string;
  on: boolean;
  previewed: boolean;
  onToggle: (on: boolean) => void;
  onPreview: () => void;
  showing: boolean;
  /** The invitation after this visit is what the preview shows. */
  previewVisits?: number;
  children?: ReactNode;
}) {
  const locked = !on && !previewed;
  return (
    <div className="dash-nudges__option">
      <label className="dash-nudges__switch">
        <input
          type="checkbox"
          checked={on}
          disabled={locked}
          aria-describedby={locked ? `nudge-${kind}-locked` : undefined}
          onChange={(event) => onToggle(event.target.checked)}
        />
        <span className="dash-nudges__label">{label}</span>
      </label>
      {locked && (
        <span id={`nudge-${kind}-locked`} className="dash-nudges__hint g-muted">
          Preview this email to switch it on.
        </span>
      )}
      {children}
      <Button type="button" variant="ghost" onClick={onPreview}>
        {showing ? 'Hide preview' : 'Preview email'}
      </Button>
      {showing && <NudgePreview kind={kind} visits={previewVisits} />}
    </div>
  );
}

/**
 * 'Asking members to refer' on Account Settings → Emails & sharing (issue 33 item 5,
 * docs/product.md#referral-nudges): an invitation to refer N days after a member joined (7–365)
 * or, where Mindbody is connected (`visitsAvailable`), after their Nth visit (1–100; otherwise
 * the choice is shown disabled with the reason),
 * one reminder M days later (3–90) to a member who has opened neither their member page nor
 * their link since, and a monthly summary to each referrer with a counting branch. Every nudge is
 * off until switched on, and each can be switched on only after its email was previewed here
 * (`GET /api/settings/referral-nudges/preview`, the real template for a member of the business).
 * 'Save' checks contracts' `validateReferralNudgeSettings` (the API's rule and messages) and
 * saves (`PUT /api/settings/referral-nudges`).
 */
export function ReferralNudgesCard() {
  const stored = useReferralNudges();
  const save = useSaveReferralNudges();
  const [saved, setSaved] = useTimedMessage();
  const [form, setForm] = useState<NudgeForm | null>(null);
  // What was previewed: a nudge kind, or 'invite-visits' (the invitation after visits reads differently).
  const [previewed, setPreviewed] = useState<Set<string>>(new Set());
  const [showing, setShowing] = useState<ReferralNudgeKind | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof ReferralNudgeSettings, string>>>({});

  useEffect(() => {
    if (stored.data) setForm(toForm(stored.data));
  }, [stored.data]);

  const change = (patch: Partial<NudgeForm>) => {
    setSaved(null);
    setForm((current) => (current ? { ...current, ...patch } : current));
  };
  const inviteKey = form?.inviteBy === 'visits' ? 'invite-visits' : 'invite';
  const preview = (kind: ReferralNudgeKind) => {
    setPreviewed((seen) => new Set(seen).add(kind === 'invite' ? inviteKey : kind));
    setShowing((current) => (current === kind ? null : kind));
  };
  const visitsAvailable = stored.data?.visitsAvailable === true;
  const previewVisits =
    form?.inviteBy === 'visits' && Number.isInteger(days(form.inviteVisits))
      ? days(form.inviteVisits)
      : undefined;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form) return;
    const settings = toSettings(form);
    const found = validateReferralNudgeSettings(settings);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaved(null);
    setForm(toForm(await save.mutateAsync(settings)));
    setSaved('Saved');
  };

  return (
    <Card className="dash-account__card" aria-labelledby="referral-nudges-title">
      <h2 className="dash-account__title" id="referral-nudges-title">
        Asking members to refer
      </h2>
      <p className="g-muted dash-account__lead">
        Grove can ask your members to bring a friend at the right moment, in your business’s name.
        Preview each email before you switch it on. A member gets at most 2 of these emails a month,
        and can unsubscribe at any time.
      </p>
      {stored.isError ? (
        <Alert>{stored.error.message}</Alert>
      ) : !form ? (
        <Spinner label="Loading your settings…" />
      ) : (
        <form onSubmit={(event) => void submit(event).catch(() => undefined)} noValidate>
          <NudgeOption
            kind="invite"
            label="Invite members to refer"
            on={form.invite}
            previewed={previewed.has(inviteKey)}
            onToggle={(on) => change(on ? { invite: on } : { invite: on, reminder: false })}
            onPreview={() => preview('invite')}
            showing={showing === 'invite'}
            previewVisits={previewVisits}
          >
            <InviteWhen
              by={form.inviteBy}
              visitsAvailable={visitsAvailable}
              visitsCost={stored.data && visitsAvailable ? visitChecksCost(stored.data) : null}
              onChange={(inviteBy) => {
                // The invitation after visits reads differently: preview it before it goes out.
                change({ inviteBy, invite: false, reminder: false });
                setShowing(null);
              }}
            />
            {form.inviteBy === 'days' ? (
              <DaysField
                id="nudge-invite-days"
                label="Days after they joined"
                range={NUDGE_INVITE_DAYS}
                value={form.inviteDays}
                disabled={!form.invite}
                error={errors.inviteAfterDays}
                onChange={(inviteDays) => change({ inviteDays })}
              />
            ) : (
              <DaysField
                id="nudge-invite-visits"
                label="After their visit number"
                range={NUDGE_INVITE_VISITS}
                value={form.inviteVisits}
                disabled={!form.invite}
                error={errors.inviteAfterVisits}
                onChange={(inviteVisits) => change({ inviteVisits })}
              />
            )}
          </NudgeOption>
          <NudgeOption
            kind="reminder"
            label="Remind once members who haven’t opened their link"
            on={form.reminder}
            previewed={previewed.has('reminder')}
            onToggle={(on) => change({ reminder: on })}
            onPreview={() => preview('reminder')}
            showing={showing === 'reminder'}
          >
            <DaysField
              id="nudge-reminder-days"
              label="Days after the invitation"
              range={NUDGE_REMINDER_DAYS}
              value={form.reminderDays}
              disabled={!form.reminder}
              error={errors.reminderAfterDays}
              onChange={(reminderDays) => change({ reminderDays })}
            />
          </NudgeOption>
          <NudgeOption
            kind="summary"
            label="A monthly summary to members whose friends count: what they saved, and one more friend’s price"
            on={form.summary}
            previewed={previewed.has('summary')}
            onToggle={(on) => change({ summary: on })}
            onPreview={() => preview('summary')}
            showing={showing === 'summary'}
          />
          {save.isError && <Alert>{save.error.message}</Alert>}
          {saved && <Alert tone="success">{saved}</Alert>}
          <Button type="submit" busy={save.isPending}>
            Save
          </Button>
        </form>
      )}
    </Card>
  );
}

/**
 * When the invitation goes: N days after joining, or after the Nth visit as Mindbody tells it —
 * offered only where Mindbody is connected (`visitsAvailable`), with what its checks cost in
 * Mindbody calls (`visitsCost`), else disabled with the reason.
 */
function InviteWhen({
  by,
  visitsAvailable,
  visitsCost,
  onChange,
}: {
  by: InviteBy;
  visitsAvailable: boolean;
  visitsCost: string | null;
  onChange: (by: InviteBy) => void;
}) {
  return (
    <fieldset className="dash-nudges__when">
      <legend className="g-muted">Invite</legend>
      <label>
        <input
          type="radio"
          name="nudge-invite-by"
          checked={by === 'days'}
          onChange={() => onChange('days')}
        />{' '}
        after a number of days as a member
      </label>
      <label>
        <input
          type="radio"
          name="nudge-invite-by"
          checked={by === 'visits'}
          disabled={!visitsAvailable && by !== 'visits'}
          aria-describedby={
            visitsAvailable ? 'nudge-invite-visits-cost' : 'nudge-invite-visits-why'
          }
          onChange={() => onChange('visits')}
        />{' '}
        after their Nth visit (visits from Mindbody)
      </label>
      {visitsAvailable && visitsCost && (
        <span id="nudge-invite-visits-cost" className="dash-nudges__hint g-muted">
          {visitsCost}
        </span>
      )}
      {!visitsAvailable && (
        <span id="nudge-invite-visits-why" className="dash-nudges__hint g-muted">
          {REFERRAL_NUDGE_MESSAGES.visitsNeedMindbody}
        </span>
      )}
    </fieldset>
  );
}

/** A number of days, with its range as the hint and the rule's message under it. */
function DaysField({
  id,
  label,
  range,
  value,
  disabled,
  error,
  onChange,
}: {
  id: string;
  label: string;
  range: { min: number; max: number };
  value: string;
  disabled: boolean;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="dash-nudges__days">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="g-field__input"
        type="number"
        inputMode="numeric"
        min={range.min}
        max={range.max}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <span className="g-muted">
        {range.min}–{range.max}
      </span>
      {error && (
        <div id={`${id}-error`} className="g-field__error">
          {error}
        </div>
      )}
    </div>
  );
}
