/**
 * The command palette: a dialog (Radix Dialog: Esc, a click or focus outside closes it, focus goes
 * back where it was) holding a combobox and its listbox (the ARIA 1.2 pattern: focus stays in the box,
 * arrows move the active option, Enter runs it). Filtering is the caller's (`filter`), so names
 * are matched in the current language. The chosen item runs once the dialog has closed and focus
 * is back, so an item that opens a dialog or a panel keeps the focus it gives.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { type KeyboardEvent, useId, useMemo, useRef, useState } from 'react';
import { Icon, type IconName } from './Icon.js';
import './ui.css';
import { shortcutText } from './shortcut.js';

export interface PaletteItem {
  id: string;
  label: string;
  /** Its menu's name, shown beside it. */
  group: string;
  icon?: IconName | undefined;
  shortcut?: string | undefined;
  disabled?: boolean;
}

export interface PaletteWords {
  title: string;
  input: string;
  placeholder: string;
  list: string;
  none: (typed: string) => string;
  unavailable: string;
}

export function Palette({
  open,
  onOpenChange,
  items,
  filter,
  onRun,
  words,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  items: readonly PaletteItem[];
  filter: (item: PaletteItem, typed: string) => boolean;
  onRun: (id: string) => void;
  words: PaletteWords;
}) {
  return (
    // Not Radix's modal mode: its scroll lock injects a <style> element, which the app's CSP
    // (style-src 'self') refuses. Focus stays in the box all the same (Tab is kept there) and
    // leaving the palette closes it.
    <Dialog.Root open={open} onOpenChange={onOpenChange} modal={false}>
      {open ? <PaletteBody items={items} filter={filter} onRun={onRun} onClose={() => onOpenChange(false)} words={words} /> : null}
    </Dialog.Root>
  );
}

function PaletteBody({
  items,
  filter,
  onRun,
  onClose,
  words,
}: {
  items: readonly PaletteItem[];
  filter: (item: PaletteItem, typed: string) => boolean;
  onRun: (id: string) => void;
  onClose: () => void;
  words: PaletteWords;
}) {
  const [typed, setTyped] = useState('');
  const [active, setActive] = useState(0);
  const chosen = useRef<string | null>(null);
  // Focus goes back where it was when the palette opened (Radix does the same on Esc).
  const returnTo = useRef(document.activeElement);
  const id = useId();
  const shown = useMemo(() => items.filter((item) => filter(item, typed)), [items, filter, typed]);
  const at = Math.min(active, Math.max(shown.length - 1, 0));
  const optionId = (i: number) => `${id}-option-${i}`;

  const run = (item: PaletteItem | undefined) => {
    if (!item || item.disabled) return;
    chosen.current = item.id;
    onClose();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && shown.length > 0) {
      e.preventDefault();
      const to = e.key === 'ArrowDown' ? (at >= last ? 0 : at + 1) : at <= 0 ? last : at - 1;
      setActive(to);
      document.getElementById(optionId(to))?.scrollIntoView?.({ block: 'nearest' });
    } else if (e.key === 'Tab') {
      // The box is the palette's one control (the options are reached with the arrows).
      e.preventDefault();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      run(shown[at]);
    }
  };

  return (
    <>
      <div className="ui-palette-overlay" aria-hidden="true" />
      <Dialog.Content
        className="ui-palette"
        aria-describedby={undefined}
        onCloseAutoFocus={(e) => {
          e.preventDefault();
          // Unless a click or focus elsewhere closed it: that keeps its focus.
          const lost = document.activeElement === null || document.activeElement === document.body;
          if (lost && returnTo.current instanceof HTMLElement) returnTo.current.focus();
          const picked = chosen.current;
          chosen.current = null;
          if (picked !== null) onRun(picked);
        }}
      >
        <Dialog.Title className="visually-hidden">{words.title}</Dialog.Title>
        <div className="ui-palette-box">
          <Icon name="search" />
          <input
            className="ui-palette-input"
            role="combobox"
            aria-label={words.input}
            aria-expanded="true"
            aria-controls={`${id}-list`}
            aria-autocomplete="list"
            aria-activedescendant={shown.length > 0 ? optionId(at) : undefined}
            placeholder={words.placeholder}
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
          />
        </div>
        <ul id={`${id}-list`} role="listbox" aria-label={words.list} className="ui-palette-list">
          {shown.map((item, i) => (
            <li
              key={item.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === at}
              aria-disabled={item.disabled || undefined}
              aria-keyshortcuts={item.shortcut}
              className="ui-palette-option"
              // The box keeps focus: a click picks without moving it.
              onMouseDown={(e) => e.preventDefault()}
              onMouseMove={() => setActive(i)}
              onClick={() => run(item)}
            >
              {item.icon ? <Icon name={item.icon} /> : <span className="ui-icon" />}
              <span className="ui-palette-label">{item.label}</span>
              {item.disabled ? <span className="ui-palette-note"> ({words.unavailable})</span> : null}
              <span className="ui-palette-group" aria-hidden="true">
                {item.group}
              </span>
              {item.shortcut ? (
                <kbd className="ui-shortcut" aria-hidden="true">
                  {shortcutText(item.shortcut)}
                </kbd>
              ) : null}
            </li>
          ))}
        </ul>
        {shown.length === 0 ? (
          <p className="ui-palette-none" role="status">
            {words.none(typed)}
          </p>
        ) : null}
      </Dialog.Content>
    </>
  );
}
