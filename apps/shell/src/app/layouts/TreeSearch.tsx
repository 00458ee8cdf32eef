import { BRANCHES_SEARCH_PARAM, hrefs } from '@grove/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';

/** The Branches screen reads its search from this query parameter. */
export const SEARCH_PARAM = BRANCHES_SEARCH_PARAM;
const BRANCHES_PATHS: string[] = [hrefs.dashboard, hrefs.branches];

/**
 * The top bar's search box: filters the trees table by name or email. Typing on the Branches
 * screen filters as you type; from another screen, Enter opens Branches with the search.
 */
export function TreeSearch() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const current = params.get(SEARCH_PARAM) ?? '';
  const [text, setText] = useState(current);
  const onBranches = BRANCHES_PATHS.includes(location.pathname.replace(/\/$/, ''));

  useEffect(() => setText(current), [current]);

  useEffect(() => {
    if (!onBranches || text === current) return;
    const timer = setTimeout(() => {
      const next = new URLSearchParams(params);
      if (text.trim()) next.set(SEARCH_PARAM, text.trim());
      else next.delete(SEARCH_PARAM);
      next.delete('page');
      setParams(next, { replace: true });
    }, 300);
    return () => clearTimeout(timer);
  }, [text, current, onBranches, params, setParams]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = text.trim();
    navigate(query ? hrefs.branchesSearch(query) : hrefs.dashboard);
  };

  return (
    <form role="search" className="shell-search" onSubmit={submit}>
      <label htmlFor="tree-search" className="g-visually-hidden">
        Search members
      </label>
      <input
        id="tree-search"
        type="search"
        className="shell-search__input"
        placeholder="Search members by name or email"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </form>
  );
}
