import { hrefs } from '@grove/contracts';
import { Link } from 'react-router-dom';
import type { GettingStarted } from '@grove/contracts';
import { Alert, Button, Card } from '@grove/web-ui';
import { useRoleMay } from '@grove/web-data-access';
import { useDismissGettingStarted, useGettingStarted } from './api/getting-started';
import './getting-started.css';

/** The id of the Branches page's 'Add New Tree' card, which 'Add or import members' jumps to. */
export const ADD_TREE_ANCHOR = 'add-new-tree';

type Step = keyof GettingStarted['steps'];

/** The checklist's steps, in order: what to do, where it is done, and why. */
const STEPS: readonly { step: Step; label: string; to: string; hint: string }[] = [
  {
    step: 'discount',
    label: 'Set your discount',
    to: hrefs.memberDefaults,
    hint: 'A default discount per referral (and price) for new members, so you never retype it.',
  },
  {
    step: 'members',
    label: 'Add or import members',
    to: `#${ADD_TREE_ANCHOR}`,
    hint: 'Add a tree by hand, or import a spreadsheet.',
  },
  {
    step: 'mindbody',
    label: 'Connect Mindbody',
    to: hrefs.mindbodySetup,
    hint: 'Import your members and keep their discount on their real bill.',
  },
  {
    step: 'links',
    label: 'Share referral links',
    to: hrefs.referralLinks,
    hint: 'Give each member their link (or email it) so friends can join.',
  },
];

/**
 * 'Getting started' on Branches for a new business (issue 25, "An owner's ordinary day", Build 4;
 * docs/product.md#getting-started): set your discount, add or import members, connect Mindbody,
 * share links. Each step links to where it is done and shows ✓ only when the API finds it done
 * in the data (`GET /api/getting-started`); the checklist goes away when every step is done, or
 * when the owner hides it ('Hide', stored for the business).
 */
export function GettingStartedCard() {
  const checklist = useGettingStarted();
  const dismiss = useDismissGettingStarted();
  // Hiding it is the business's setting (`PUT /api/getting-started`: owners and managers).
  const mayHide = useRoleMay('manage');
  const data = checklist.data;
  if (!data || data.dismissed) return null;
  const done = STEPS.filter(({ step }) => data.steps[step]).length;
  if (done === STEPS.length) return null;

  return (
    <Card className="dash-start" aria-labelledby="getting-started-title">
      <div className="dash-start__head">
        <div>
          <h2 id="getting-started-title">Getting started</h2>
          <p className="g-muted">
            {done} of {STEPS.length} done
          </p>
        </div>
        {mayHide && (
          <Button
            size="sm"
            variant="secondary"
            busy={dismiss.isPending}
            onClick={() => dismiss.mutate({ dismissed: true })}
          >
            Hide checklist
          </Button>
        )}
      </div>
      {dismiss.isError && <Alert>{dismiss.error.message}</Alert>}
      <ol className="dash-start__steps">
        {STEPS.map(({ step, label, to, hint }) => {
          const isDone = data.steps[step];
          return (
            <li
              key={step}
              className={`dash-start__step${isDone ? ' dash-start__step--done' : ''}`}
              data-testid={`getting-started-${step}`}
              data-done={isDone}
            >
              <span className="dash-start__mark" aria-hidden="true">
                {isDone ? '✓' : ''}
              </span>
              <span>
                {to.startsWith('#') ? (
                  <a href={to} className="dash-start__link">
                    {label}
                  </a>
                ) : (
                  <Link to={to} className="dash-start__link">
                    {label}
                  </Link>
                )}
                <span className="g-visually-hidden">{isDone ? ' (done)' : ' (to do)'}</span>
                <span className="dash-start__hint g-muted">{hint}</span>
              </span>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
