import * as Tabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import markUrl from '../../assets/mark.svg';
import { APP_NAME } from '../../common/window-title.js';
import './tab-bar.css';

/**
 * The frame's sections as WAI-ARIA tabs on Radix Tabs, with manual activation: one Tab stop, the
 * selected tab; arrows, Home and End move between tabs, Enter or Space (or a click) opens one.
 * `TabsFrame` is the tabs' root around the whole window (the tab bar is in the header, the panel in
 * <main>); the ids stay `tab-<id>` and `panel-<id>`, which the skip link and the tests know.
 */
export function TabsFrame({ selected, onSelect, children }: { selected: string; onSelect: (tab: string) => void; children: ReactNode }) {
  return (
    <Tabs.Root asChild value={selected} onValueChange={onSelect} activationMode="manual">
      <div className="frame">{children}</div>
    </Tabs.Root>
  );
}

/** The open section's panel (inside <main>, so the landmark stays "main"). */
export function TabPanel({ tab, children }: { tab: string; children: ReactNode }) {
  return (
    <Tabs.Content value={tab} className="tab-panel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
      {children}
    </Tabs.Content>
  );
}

/**
 * The frame's top row: the mark and the name, then the sections' tablist. Radix opens a tab on
 * mouse down and on Enter or Space; a click alone (voice control, a screen reader's virtual
 * cursor, `element.click()`) opens it through `onSelect`.
 */
export function TabBar<T extends string>({ tabs, label, onSelect }: { tabs: readonly (readonly [T, string])[]; label: string; onSelect: (tab: T) => void }) {
  return (
    <div className="tab-bar">
      <span className="brand">
        <img src={markUrl} alt="" width={22} height={22} />
        <span className="brand-name">{APP_NAME}</span>
      </span>
      <Tabs.List className="tabs" aria-label={label} loop>
        {tabs.map(([id, text]) => (
          <Tabs.Trigger key={id} value={id} id={`tab-${id}`} aria-controls={`panel-${id}`} onClick={() => onSelect(id)}>
            {text}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
    </div>
  );
}

/**
 * "Skip to the grid": the first Tab stop of the window, shown when focused. On Stock it lands on
 * the grid's active cell; elsewhere on the open screen.
 */
export function SkipLink({ toGrid, text }: { toGrid: boolean; text: string }) {
  return (
    <a
      className="skip-link"
      href="#main"
      onClick={(e) => {
        e.preventDefault();
        const main = document.getElementById('main');
        // The grid's one Tab stop is its active cell (roving tabindex in GridCell.tsx).
        const target = (toGrid ? main?.querySelector<HTMLElement>('[role="grid"] [tabindex="0"]') : null) ?? main;
        target?.focus();
      }}
    >
      {text}
    </a>
  );
}
