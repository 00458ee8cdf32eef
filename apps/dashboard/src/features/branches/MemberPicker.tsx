import { useEffect, useId, useState } from 'react';
import { useCombobox } from 'downshift';
import { REFERRED_BY_NOTE_MAX_LENGTH, type MemberRow } from '@grove/contracts';
import { useMemberSearch } from './api/members';
import './member-picker.css';

/** What a {@link MemberPicker} holds: a member picked from the list, or only the text typed. */
export interface PickedReferrer {
  /** The member picked, or null while none is. */
  member: Pick<MemberRow, 'id' | 'memberName'> | null;
  /** The text in the field, trimmed. */
  text: string;
}

/** Props of {@link MemberPicker}. */
export interface MemberPickerProps {
  label: string;
  value: PickedReferrer;
  onChange: (value: PickedReferrer) => void;
  /** Members that may not be picked (e.g. the member being matched). */
  exclude?: readonly string[];
  /** What the field says under it when text matches no member; none: nothing said. */
  unmatchedHint?: (text: string) => string;
  /** Shown under the field while nothing is typed. */
  hint?: string;
}

/** The changes by which a member is picked (a click, Enter, or leaving the field on a highlighted one). */
const PICKS = new Set<string>([
  useCombobox.stateChangeTypes.ItemClick,
  useCombobox.stateChangeTypes.InputKeyDownEnter,
  useCombobox.stateChangeTypes.InputBlur,
  useCombobox.stateChangeTypes.ControlledPropUpdatedSelectedItem,
]);

/** How long typing pauses before the search is asked (milliseconds). */
const SEARCH_DELAY_MS = 200;

/**
 * A typeahead over the business's members (issue 33 item 4, docs/product.md#branches "Referred
 * by"): typing part of a name or email lists up to 8 matching members (the members search) in a
 * WAI-ARIA combobox (downshift's `useCombobox`: arrows, Enter, Escape, screen-reader
 * announcements); picking one sets `value.member`. Typing again after a pick lets the pick go.
 */
export function MemberPicker({
  label,
  value,
  onChange,
  exclude = [],
  unmatchedHint,
  hint,
}: MemberPickerProps) {
  const [typed, setTyped] = useState(value.member?.memberName ?? value.text);
  // The picked row itself (one object while picked): a new object each render would read to
  // downshift as a new pick every render.
  const [picked, setPicked] = useState<MemberRow | null>(null);
  const [search, setSearch] = useState(typed);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const found = useMemberSearch(value.member ? '' : search);
  const items = (found.data?.items ?? []).filter((row) => !exclude.includes(row.id));
  const hintId = useId();
  const { isOpen, getLabelProps, getInputProps, getMenuProps, getItemProps, highlightedIndex } =
    useCombobox<MemberRow>({
      items,
      inputValue: typed,
      itemToString: (item) => item?.memberName ?? '',
      selectedItem: value.member ? picked : null,
      onInputValueChange: ({ inputValue, type }) => {
        const text = inputValue ?? '';
        setTyped(text);
        // A pick writes the member's name in the field: that is not typing (onSelectedItemChange).
        if (PICKS.has(type)) return;
        if (picked && text === picked.memberName) return;
        setPicked(null);
        onChange({ member: null, text: text.trim() });
      },
      onSelectedItemChange: ({ selectedItem }) => {
        if (!selectedItem) return;
        setPicked(selectedItem);
        setTyped(selectedItem.memberName);
        onChange({
          member: { id: selectedItem.id, memberName: selectedItem.memberName },
          text: selectedItem.memberName,
        });
      },
    });
  const settled = !found.isFetching && search === typed && found.data !== undefined;
  const status = value.member
    ? `Adds them as ${value.member.memberName}’s branch.`
    : value.text && settled && items.length === 0 && unmatchedHint
      ? unmatchedHint(value.text)
      : value.text
        ? null
        : (hint ?? null);
  return (
    <div className="g-field dash-picker">
      <label className="g-field__label" {...getLabelProps()}>
        {label}
      </label>
      <input
        className="g-field__input"
        maxLength={REFERRED_BY_NOTE_MAX_LENGTH}
        {...getInputProps({ 'aria-describedby': status ? hintId : undefined })}
      />
      <ul className="dash-picker__menu" {...getMenuProps()} hidden={!(isOpen && items.length > 0)}>
        {isOpen &&
          items.map((item, index) => (
            <li
              key={item.id}
              className={
                highlightedIndex === index
                  ? 'dash-picker__option dash-picker__option--active'
                  : 'dash-picker__option'
              }
              {...getItemProps({ item, index })}
            >
              <span>{item.memberName}</span>
              <span className="dash-picker__email">{item.memberEmail}</span>
            </li>
          ))}
      </ul>
      {status && (
        <div id={hintId} className="g-field__hint" aria-live="polite">
          {status}
        </div>
      )}
    </div>
  );
}
