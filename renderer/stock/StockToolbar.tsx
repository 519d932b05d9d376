/**
 * The stock toolbar's menus and command palette (issue 28): File, View and Edit menus and the
 * palette (Ctrl/Cmd+K, or the Commands button) all made from the action registry (actions.ts).
 * View's controls that need more than a click (the store, the filter, saved views, columns, the
 * reorder point, Scans go to) are the existing controls, shown in the View options panel (a
 * Radix Popover under the View menu) with focus on the one asked for.
 */
import * as Popover from '@radix-ui/react-popover';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Icon } from '../ui/Icon.js';
import { Menu, type MenuEntry } from '../ui/Menu.js';
import { Palette, type PaletteItem } from '../ui/Palette.js';
import { isMac, shortcutText } from '../ui/shortcut.js';
import { Tooltip } from '../ui/Tooltip.js';
import {
  type ActionContext,
  type ActionState,
  MENU_GROUPS,
  type MenuGroup,
  STOCK_ACTIONS,
  type ViewControl,
  actionEnabled,
  actionLabel,
  matches,
} from './actions.js';
import { useCount, useCountStore } from './count/context.js';
import { useStock, useStockStore } from './store.js';
import { useStockWords } from './words.js';
import './toolbar.css';

/** Where each View control is in the panel (the existing components, found by what they are). */
const VIEW_TARGETS: Record<ViewControl, string> = {
  store: '[data-view="store"]',
  show: '[data-view="show"]',
  scanStore: '[data-view="scanStore"]',
  views: '.views-menu select',
  columns: '.columns-menu button',
  reorder: '.reorder-point input',
};
const MENU_ICONS = { file: 'file', view: 'view', edit: 'edit' } as const;
const PALETTE_KEYS = 'Control+K';

/** Focus was in a panel that is gone (nothing took it since). */
const focusIsLost = () => document.activeElement === null || document.activeElement === document.body;

/** What the menus show that changes: the toolbar re-renders when one of these does, not on every grid page. */
function useActionState(): ActionState {
  const stock = useStockStore();
  const count = useCountStore();
  useStock((s) => `${s.historyOpen}|${s.query.lowStock}|${s.query.belowReorder}|${s.hidden.length}|${s.reason}|${s.activity === null}`);
  useCount((s) => s.view);
  return { stock: stock.getState(), count: count.getState() };
}

export function StockToolbar({ viewOptions }: { viewOptions: ReactNode }) {
  const stock = useStockStore();
  const count = useCountStore();
  const w = useStockWords();
  const state = useActionState();
  const [paletteOpen, setPaletteOpen] = useState(false);
  // The panel's control to focus, with a counter: asking again for the same one focuses it again.
  const [view, setView] = useState<{ control: ViewControl; n: number } | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const anchor = useRef<HTMLSpanElement>(null);

  const ctx: ActionContext = useMemo(() => ({ stock, count, openView: (control) => setView((v) => ({ control, n: (v?.n ?? 0) + 1 })) }), [stock, count]);
  const run = useCallback(
    (id: string) => {
      const action = STOCK_ACTIONS.find((a) => a.id === id);
      if (action && actionEnabled(action, { stock: stock.getState(), count: count.getState() })) action.run(ctx);
    },
    [ctx, stock, count],
  );

  // Ctrl+K (⌘K) opens the palette from anywhere on the stock screen.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setPaletteOpen(true);
      }
    };
    // In the capture phase: controls that keep their keys to themselves (the grid's sort buttons) do not swallow it.
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  // The control asked for gets focus: when the panel opens (onOpenAutoFocus: its content is there
  // only then) and when another is asked for while it is open.
  const viewRef = useRef(view);
  viewRef.current = view;
  const focusControl = useCallback(() => {
    const v = viewRef.current;
    if (!v || !panel.current) return;
    (panel.current.querySelector<HTMLElement>(VIEW_TARGETS[v.control]) ?? panel.current).focus();
  }, []);
  useEffect(() => focusControl(), [view, focusControl]);

  const menuEntries = (group: MenuGroup): MenuEntry[] =>
    STOCK_ACTIONS.filter((a) => a.group === group).map((a) => ({
      id: a.id,
      label: actionLabel(a, state, w.t, true),
      kind: a.kind,
      icon: a.icon,
      shortcut: a.shortcut,
      disabled: !actionEnabled(a, state),
      checked: a.checked?.(state) ?? false,
      set: a.choice ? w.t(a.choice.set) : undefined,
    }));
  const paletteItems: PaletteItem[] = STOCK_ACTIONS.map((a) => ({
    id: a.id,
    label: actionLabel(a, state, w.t),
    group: w.t(`palette.group.${a.group}`),
    icon: a.icon,
    shortcut: a.shortcut,
    disabled: !actionEnabled(a, state),
  }));

  const menu = (group: MenuGroup) => <Menu key={group} label={w.t(`menu.${group}`)} icon={MENU_ICONS[group]} entries={menuEntries(group)} onRun={run} />;

  return (
    <div className="stock-menus">
      {MENU_GROUPS.map((group) =>
        group !== 'view' ? (
          menu(group)
        ) : (
          <Popover.Root key={group} open={view !== null} onOpenChange={(open) => (open ? undefined : setView(null))}>
            <Popover.Anchor asChild>
              <span ref={anchor} className="ui-menu-anchor">
                {menu(group)}
              </span>
            </Popover.Anchor>
            <Popover.Content
              ref={panel}
              className="ui-panel view-panel"
              aria-label={w.t('menu.viewPanel')}
              align="start"
              sideOffset={4}
              tabIndex={-1}
              onOpenAutoFocus={(e) => {
                e.preventDefault();
                focusControl();
              }}
              onCloseAutoFocus={(e) => {
                e.preventDefault();
                // Esc or Close: back to the View menu; a click or focus elsewhere (a cell, the palette) keeps it.
                if (focusIsLost()) anchor.current?.querySelector('button')?.focus();
              }}
              onEscapeKeyDown={(e) => {
                // Columns' own list closes first (ColumnsMenu handles its Esc).
                if (e.target instanceof Element && e.target.closest('.columns-panel')) e.preventDefault();
              }}
            >
              <div className="view-panel-head">
                <h2>{w.t('menu.viewPanel')}</h2>
                <Tooltip label={w.t('menu.viewPanelClose')}>
                  <Popover.Close className="ui-icon-button" aria-label={w.t('menu.viewPanelClose')}>
                    <Icon name="close" />
                  </Popover.Close>
                </Tooltip>
              </div>
              {viewOptions}
            </Popover.Content>
          </Popover.Root>
        ),
      )}
      <Tooltip label={w.t('palette.title')} shortcut={PALETTE_KEYS}>
        <button
          type="button"
          className="ui-menu-button palette-open"
          aria-keyshortcuts={isMac() ? 'Meta+K' : PALETTE_KEYS}
          onClick={() => setPaletteOpen(true)}
        >
          <Icon name="command" />
          {w.t('palette.open')}
          <kbd className="ui-shortcut" aria-hidden="true">
            {shortcutText(PALETTE_KEYS)}
          </kbd>
        </button>
      </Tooltip>
      <Palette
        open={paletteOpen}
        onOpenChange={setPaletteOpen}
        items={paletteItems}
        filter={(item, typed) => matches(`${item.label} ${item.group}`, typed)}
        onRun={run}
        words={{
          title: w.t('palette.title'),
          input: w.t('palette.input'),
          placeholder: w.t('palette.placeholder'),
          list: w.t('palette.list'),
          none: (text) => w.t('palette.none', { text }),
          unavailable: w.t('palette.unavailable'),
        }}
      />
    </div>
  );
}
