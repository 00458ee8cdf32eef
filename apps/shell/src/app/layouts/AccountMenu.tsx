import { hrefs } from '@grove/contracts';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useLogout, useSession } from '@grove/web-data-access';

/**
 * The account button (docs/product.md#signed-in-frame): shows the username; its menu has 'Account Settings' (the owner's
 * details and password) and 'Log out' (ends the session, then /login). Escape and outside clicks
 * close it.
 */
export function AccountMenu() {
  const session = useSession();
  const logout = useLogout();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === 'Escape'
          : !ref.current?.contains(event.target as Node)
      ) {
        setOpen(false);
      }
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const username = session.data?.username ?? '';
  return (
    <div className="shell-account" ref={ref}>
      <button
        type="button"
        className="shell-account__button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="shell-account__avatar" aria-hidden="true">
          {username.slice(0, 1).toUpperCase()}
        </span>
        <span className="shell-account__name">{username}</span>
      </button>
      {open && (
        <ul className="shell-account__menu" role="menu">
          <li role="none">
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                setOpen(false);
                navigate(hrefs.accountSettings);
              }}
            >
              Account Settings
            </button>
          </li>
          <li role="none">
            <button
              type="button"
              role="menuitem"
              onClick={() =>
                logout.mutate(undefined, {
                  onError: (error) => console.error('Grove: sign-out failed', error),
                  onSettled: () => navigate(hrefs.login, { replace: true }),
                })
              }
            >
              Log out
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
