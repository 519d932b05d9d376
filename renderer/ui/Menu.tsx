/**
 * A menu button on Radix's DropdownMenu (roles, arrow keys, typeahead, Esc, focus back on the
 * button). Entries are commands, toggles (checkbox items) or choices of a set (radio items, under
 * the set's name). The chosen entry runs after the menu has closed and given focus back, so an
 * entry that opens a dialog or a panel keeps the focus it gives.
 */
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Fragment, useRef } from 'react';
import { Icon, type IconName } from './Icon.js';
import './ui.css';
import { shortcutText } from './shortcut.js';

export interface MenuEntry {
  id: string;
  label: string;
  kind: 'command' | 'toggle' | 'choice';
  icon?: IconName | undefined;
  shortcut?: string | undefined;
  disabled?: boolean;
  checked?: boolean;
  /** A choice's set, by name: consecutive choices of one set are one radio group. */
  set?: string | undefined;
}

function EntryBody({ entry }: { entry: MenuEntry }) {
  return (
    <>
      {entry.kind === 'command' && entry.icon ? <Icon name={entry.icon} /> : entry.checked ? <Icon name="check" /> : <span className="ui-icon" />}
      <span className="ui-menu-label">{entry.label}</span>
      {entry.shortcut ? (
        <kbd className="ui-shortcut" aria-hidden="true">
          {shortcutText(entry.shortcut)}
        </kbd>
      ) : null}
    </>
  );
}

/** Groups consecutive choices of one set. */
function sections(entries: readonly MenuEntry[]): (MenuEntry | { set: string; choices: MenuEntry[] })[] {
  const out: (MenuEntry | { set: string; choices: MenuEntry[] })[] = [];
  for (const e of entries) {
    const last = out.at(-1);
    if (e.kind === 'choice' && e.set !== undefined) {
      if (last && 'choices' in last && last.set === e.set) last.choices.push(e);
      else out.push({ set: e.set, choices: [e] });
    } else out.push(e);
  }
  return out;
}

export function Menu({ label, icon, entries, onRun }: { label: string; icon: IconName; entries: readonly MenuEntry[]; onRun: (id: string) => void }) {
  const chosen = useRef<string | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const choose = (id: string) => {
    chosen.current = id;
  };
  return (
    // modal={false}: Radix's modal mode locks scrolling with an injected <style>, which the app's CSP refuses.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger ref={trigger} className="ui-menu-button">
        <Icon name={icon} />
        {label}
        <Icon name="chevron" size={14} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Content
        className="ui-menu"
        align="start"
        sideOffset={4}
        loop
        onCloseAutoFocus={(e) => {
          const id = chosen.current;
          chosen.current = null;
          e.preventDefault();
          // Closed by Esc or a choice: focus back on the button. Not modal, Radix gives it back only
          // when nothing happened outside since opening; a click or focus elsewhere keeps its focus.
          const lost = document.activeElement === null || document.activeElement === document.body;
          if (id !== null || lost) trigger.current?.focus();
          if (id !== null) onRun(id);
        }}
      >
        {sections(entries).map((s) =>
          'choices' in s ? (
            <Fragment key={s.set}>
              <DropdownMenu.Separator className="ui-menu-separator" />
              <DropdownMenu.Label className="ui-menu-group-label">{s.set}</DropdownMenu.Label>
              <DropdownMenu.RadioGroup aria-label={s.set} value={s.choices.find((c) => c.checked)?.id ?? ''} onValueChange={choose}>
                {s.choices.map((c) => (
                  <DropdownMenu.RadioItem key={c.id} value={c.id} className="ui-menu-item" disabled={c.disabled}>
                    <EntryBody entry={c} />
                  </DropdownMenu.RadioItem>
                ))}
              </DropdownMenu.RadioGroup>
            </Fragment>
          ) : s.kind === 'toggle' ? (
            <DropdownMenu.CheckboxItem
              key={s.id}
              className="ui-menu-item"
              checked={s.checked === true}
              disabled={s.disabled}
              aria-keyshortcuts={s.shortcut}
              onSelect={() => choose(s.id)}
            >
              <EntryBody entry={s} />
            </DropdownMenu.CheckboxItem>
          ) : (
            <DropdownMenu.Item key={s.id} className="ui-menu-item" disabled={s.disabled} aria-keyshortcuts={s.shortcut} onSelect={() => choose(s.id)}>
              <EntryBody entry={s} />
            </DropdownMenu.Item>
          ),
        )}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
