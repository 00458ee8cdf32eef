import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ReferralTreeNode } from '@grove/contracts';
import { useLocaleFormats } from '@grove/web-data-access';
import { memberProfilePath } from '../../components/member-link/MemberLink';
import { MemberStatusBadge } from '../../components/member-status/MemberStatusBadge';

/** A tree item as shown, in reading order, with what keyboard moves need. */
interface VisibleItem {
  node: ReferralTreeNode;
  level: number;
  parentId: string | null;
}

function visibleItems(
  nodes: ReferralTreeNode[],
  expanded: ReadonlySet<string>,
  level = 1,
  parentId: string | null = null,
  out: VisibleItem[] = [],
): VisibleItem[] {
  for (const node of nodes) {
    out.push({ node, level, parentId });
    if (node.branches.length > 0 && expanded.has(node.id))
      visibleItems(node.branches, expanded, level + 1, node.id, out);
  }
  return out;
}

function allWithBranches(nodes: ReferralTreeNode[], out = new Set<string>()): Set<string> {
  for (const node of nodes) {
    if (node.branches.length > 0) {
      out.add(node.id);
      allWithBranches(node.branches, out);
    }
  }
  return out;
}

const more = (count: number) => `${count} more branch${count === 1 ? '' : 'es'}`;

/**
 * A member's referral tree (their branches, the branches' branches, …) as a WAI-ARIA tree view
 * (https://www.w3.org/WAI/ARIA/apg/patterns/treeview/): `role="tree"` with nested `treeitem`s and
 * `group`s, one tab stop (roving tabindex), ↓/↑ to the next/previous visible member, → to open a
 * member's branches or go to the first one, ← to close them or go up to the branch's tree,
 * Home/End, and Enter (or a click) to open that member's profile. Every member starts open.
 */
export function ReferralTree({ label, nodes }: { label: string; nodes: ReferralTreeNode[] }) {
  const format = useLocaleFormats();
  const navigate = useNavigate();
  const [expanded, setExpanded] = useState<Set<string>>(() => allWithBranches(nodes));
  const [focusedId, setFocusedId] = useState<string | null>(nodes[0]?.id ?? null);
  const items = useRef(new Map<string, HTMLLIElement>());
  const visible = useMemo(() => visibleItems(nodes, expanded), [nodes, expanded]);
  const current = visible.find((item) => item.node.id === focusedId) ?? visible[0];

  const focus = (id: string | null | undefined) => {
    if (!id) return;
    setFocusedId(id);
    items.current.get(id)?.focus();
  };
  const toggle = (id: string, open: boolean) =>
    setExpanded((before) => {
      const next = new Set(before);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (!current) return;
    const index = visible.indexOf(current);
    const { node } = current;
    const open = expanded.has(node.id);
    const handled = (() => {
      switch (event.key) {
        case 'ArrowDown':
          focus(visible[index + 1]?.node.id);
          return true;
        case 'ArrowUp':
          focus(visible[index - 1]?.node.id);
          return true;
        case 'Home':
          focus(visible[0]?.node.id);
          return true;
        case 'End':
          focus(visible[visible.length - 1]?.node.id);
          return true;
        case 'ArrowRight':
          if (node.branches.length === 0) return true;
          if (!open) toggle(node.id, true);
          else focus(node.branches[0]?.id);
          return true;
        case 'ArrowLeft':
          if (node.branches.length > 0 && open) toggle(node.id, false);
          else focus(current.parentId);
          return true;
        case 'Enter':
          navigate(memberProfilePath(node.id));
          return true;
        default:
          return false;
      }
    })();
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const render = (list: ReferralTreeNode[], level: number) =>
    list.map((node, position) => {
      const hasBranches = node.branches.length > 0;
      const open = expanded.has(node.id);
      return (
        <li
          key={node.id}
          ref={(element) => {
            if (element) items.current.set(node.id, element);
            else items.current.delete(node.id);
          }}
          role="treeitem"
          aria-level={level}
          aria-setsize={list.length}
          aria-posinset={position + 1}
          aria-expanded={hasBranches ? open : undefined}
          aria-selected={current?.node.id === node.id}
          tabIndex={current?.node.id === node.id ? 0 : -1}
          className="dash-tree__item"
          data-testid="tree-node"
          onFocus={(event) => {
            if (event.target === event.currentTarget) setFocusedId(node.id);
          }}
          onClick={(event) => {
            event.stopPropagation();
            navigate(memberProfilePath(node.id));
          }}
        >
          <div className="dash-tree__label">
            {hasBranches ? (
              <span
                className="dash-tree__toggle"
                aria-hidden="true"
                onClick={(event) => {
                  event.stopPropagation();
                  toggle(node.id, !open);
                }}
              >
                {open ? '▾' : '▸'}
              </span>
            ) : (
              <span className="dash-tree__toggle" aria-hidden="true">
                •
              </span>
            )}
            <span className="dash-tree__name">{node.name}</span>
            <MemberStatusBadge status={node.status} hideActive />
            <span className="dash-tree__date">joined {format.date(node.joinedAt)}</span>
            {node.hiddenBranches > 0 && (
              <span className="dash-tree__more">+ {more(node.hiddenBranches)}</span>
            )}
          </div>
          {hasBranches && open && (
            <ul role="group" className="dash-tree__group">
              {render(node.branches, level + 1)}
            </ul>
          )}
        </li>
      );
    });

  return (
    <ul role="tree" aria-label={label} className="dash-tree" onKeyDown={onKeyDown}>
      {render(nodes, 1)}
    </ul>
  );
}
