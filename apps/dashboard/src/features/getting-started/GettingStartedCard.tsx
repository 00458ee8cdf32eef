import { Fragment } from 'react';
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

/** Where a step is done: the link's words and address (a `#` address is on this page). */
interface StepLink {
  /** The visible words. */
  text: string;
  to: string;
  /** The link's name when its words alone do not say it (e.g. 'Connect Stripe' for 'Stripe'). */
  name?: string;
}

/**
 * The checklist's steps, in order: what to do (`before`, then its links joined by 'or'), where it
 * is done, and why.
 */
const STEPS: readonly { step: Step; before?: string; links: StepLink[]; hint: string }[] = [
  {
    step: 'discount',
    links: [{ text: 'Set your discount', to: hrefs.memberDefaults }],
    hint: 'A default discount per referral (and price) for new members, so you never retype it.',
  },
  {
    step: 'members',
    links: [{ text: 'Add or import members', to: `#${ADD_TREE_ANCHOR}` }],
    hint: 'Add a tree by hand, or import a spreadsheet.',
  },
  {
    // Issue 32: Stripe member billing beside Mindbody, either one ticks the step.
    step: 'billing',
    before: 'Connect',
    links: [
      { text: 'Mindbody', to: hrefs.mindbodySetup, name: 'Connect Mindbody' },
      { text: 'Stripe', to: hrefs.stripeSetup, name: 'Connect Stripe' },
    ],
    hint: 'Where you bill your members: import them and keep their discount on their real bill.',
  },
  {
    step: 'links',
    links: [{ text: 'Share referral links', to: hrefs.referralLinks }],
    hint: 'Give each member their link (or email it) so friends can join.',
  },
];

/** A step's link: within this page (`#…`) a plain anchor, elsewhere a router link. */
function StepAnchor({ link }: { link: StepLink }) {
  const { text, to, name } = link;
  return to.startsWith('#') ? (
    <a href={to} className="dash-start__link" aria-label={name}>
      {text}
    </a>
  ) : (
    <Link to={to} className="dash-start__link" aria-label={name}>
      {text}
    </Link>
  );
}

/**
 * 'Getting started' on Branches for a new business (issue 25, "An owner's ordinary day", Build 4;
 * docs/product.md#getting-started): set your discount, add or import members, connect Mindbody or
 * Stripe (where the members are billed, issue 32), share links. Each step links to where it is done and shows ✓ only when the API finds it done
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
        {STEPS.map(({ step, before, links, hint }) => {
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
                {before && <span className="dash-start__link">{before} </span>}
                {links.map((link, index) => (
                  <Fragment key={link.to}>
                    {index > 0 && ' or '}
                    <StepAnchor link={link} />
                  </Fragment>
                ))}
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
