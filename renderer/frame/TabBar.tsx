import { type KeyboardEvent, useRef } from 'react';
import markUrl from '../../assets/mark.svg';
import { APP_NAME } from '../../common/window-title.js';
import './tab-bar.css';

/**
 * The frame's top row: the mark and the name, then the sections as a tablist (WAI-ARIA tabs with
 * manual activation): one Tab stop, the selected tab; arrows, Home and End move between tabs,
 * Enter or Space opens one. Before it, a skip link straight to the grid (or the open screen).
 */
export function TabBar<T extends string>({
  tabs,
  selected,
  label,
  onSelect,
}: {
  tabs: readonly (readonly [T, string])[];
  selected: T;
  label: string;
  onSelect: (tab: T) => void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const buttons = Array.from(list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? []);
    const at = buttons.findIndex((b) => b === document.activeElement);
    if (at < 0) return;
    const to =
      e.key === 'ArrowRight'
        ? (at + 1) % buttons.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + buttons.length) % buttons.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? buttons.length - 1
              : -1;
    if (to < 0) return;
    e.preventDefault();
    buttons[to]?.focus();
  };
  return (
    <div className="tab-bar">
      <span className="brand">
        <img src={markUrl} alt="" width={22} height={22} />
        <span className="brand-name">{APP_NAME}</span>
      </span>
      <div ref={list} className="tabs" role="tablist" aria-label={label} aria-orientation="horizontal" onKeyDown={onKeyDown}>
        {tabs.map(([id, text]) => (
          <button
            key={id}
            role="tab"
            type="button"
            aria-selected={selected === id}
            aria-controls={`panel-${id}`}
            id={`tab-${id}`}
            tabIndex={selected === id ? 0 : -1}
            onClick={() => onSelect(id)}
          >
            {text}
          </button>
        ))}
      </div>
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
