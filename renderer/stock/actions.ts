/**
 * Every action of the stock toolbar, once: the File, View and Edit menus and the command palette
 * (Ctrl/Cmd+K) all read this list, so an action is named, grouped, given its shortcut and enabled
 * in one place (issue 28). The search box and Count stay on the toolbar (group 'primary') and are
 * in the palette too.
 *
 * An action that needs a control (a store to pick, a view to save) opens the View options panel
 * with focus on that control (`openView`): the existing controls are shown there, not rewritten.
 */
import { PICKABLE_REASONS } from '../../common/stock-reasons.js';
import type { Vars } from '../i18n/index.js';
import type { IconName } from '../ui/Icon.js';
import type { CountState, CountStore } from './count/store.js';
import { exportCsv, exportXlsx } from './csv-export.js';
import type { StockState, StockStore } from './store.js';
import type { StockKey, StockWords } from './words.js';

export type ActionGroup = 'primary' | 'file' | 'view' | 'edit';
export const MENU_GROUPS = ['file', 'view', 'edit'] as const satisfies readonly ActionGroup[];
export type MenuGroup = (typeof MENU_GROUPS)[number];

/** The View options panel's controls an action can open it on (`data-view` on each control). */
export type ViewControl = 'store' | 'show' | 'scanStore' | 'views' | 'columns' | 'reorder';

export interface ActionContext {
  stock: StockStore;
  count: CountStore;
  openView(control: ViewControl): void;
}

export interface ActionState {
  stock: StockState;
  count: CountState;
}

export interface StockAction {
  id: string;
  group: ActionGroup;
  /** A command runs; a toggle is on or off (a checkbox item); a choice is one of a set (a radio item). */
  kind: 'command' | 'toggle' | 'choice';
  labelKey: StockKey;
  labelVars?: (s: ActionState, t: StockWords['t']) => Vars;
  /** A choice's name inside its set in a menu (the palette names it with its set: `labelKey`). */
  choice?: { set: StockKey; labelKey: StockKey };
  /** In `aria-keyshortcuts` form ("Control+M"); shown by the menus and the palette (ui/shortcut.ts). */
  shortcut?: string;
  icon?: IconName;
  checked?: (s: ActionState) => boolean;
  enabled?: (s: ActionState) => boolean;
  run(ctx: ActionContext): void;
}

const idle = (s: ActionState) => s.stock.activity === null;

const REASON_ACTIONS: StockAction[] = PICKABLE_REASONS.map((reason) => ({
  id: `reason.${reason}`,
  group: 'edit',
  kind: 'choice',
  labelKey: 'palette.reason',
  labelVars: (_s, t) => ({ reason: t(`reason.${reason}`) }),
  choice: { set: 'reason.label', labelKey: `reason.${reason}` },
  icon: 'reason',
  checked: (s) => s.stock.reason === reason,
  run: (c) => c.stock.getState().setReason(reason),
}));

export const STOCK_ACTIONS: readonly StockAction[] = [
  {
    id: 'search',
    group: 'primary',
    kind: 'command',
    labelKey: 'search.label',
    shortcut: 'Control+F',
    icon: 'search',
    run: () => {
      const box = document.getElementById('stock-search');
      if (box instanceof HTMLInputElement) {
        box.focus();
        box.select();
      }
    },
  },
  {
    id: 'count',
    group: 'primary',
    kind: 'toggle',
    labelKey: 'count.open',
    shortcut: 'Alt+Shift+C',
    icon: 'count',
    checked: (s) => s.count.view !== null,
    run: (c) => (c.count.getState().view === null ? c.count.getState().open('scan') : c.count.getState().close()),
  },
  { id: 'exportCsv', group: 'file', kind: 'command', labelKey: 'csv.export', icon: 'exportCsv', enabled: idle, run: (c) => void exportCsv(c.stock) },
  { id: 'exportXlsx', group: 'file', kind: 'command', labelKey: 'csv.exportXlsx', icon: 'exportXlsx', enabled: idle, run: (c) => void exportXlsx(c.stock) },
  { id: 'import', group: 'file', kind: 'command', labelKey: 'csv.import', icon: 'import', enabled: idle, run: (c) => c.stock.getState().setDialog('import') },
  { id: 'newListing', group: 'file', kind: 'command', labelKey: 'listing.new', icon: 'newListing', run: (c) => c.stock.getState().setDialog('listing') },
  {
    id: 'history',
    group: 'view',
    kind: 'toggle',
    labelKey: 'history.show',
    icon: 'history',
    checked: (s) => s.stock.historyOpen,
    run: (c) => c.stock.getState().toggleHistory(),
  },
  { id: 'store', group: 'view', kind: 'command', labelKey: 'filter.store', icon: 'store', run: (c) => c.openView('store') },
  { id: 'show', group: 'view', kind: 'command', labelKey: 'filter.state', icon: 'filter', run: (c) => c.openView('show') },
  {
    id: 'lowStock',
    group: 'view',
    kind: 'toggle',
    labelKey: 'filter.lowStock',
    icon: 'lowStock',
    checked: (s) => s.stock.query.lowStock !== null,
    run: (c) => {
      const s = c.stock.getState();
      void s.setQuery({ lowStock: s.query.lowStock === null ? s.lowStockThreshold : null });
    },
  },
  {
    id: 'belowReorder',
    group: 'view',
    kind: 'toggle',
    labelKey: 'filter.belowReorder',
    icon: 'belowReorder',
    checked: (s) => s.stock.query.belowReorder === true,
    run: (c) => void c.stock.getState().setQuery({ belowReorder: c.stock.getState().query.belowReorder !== true }),
  },
  {
    // Days of cover in the store cells (issue 28, cover.ts): kept with the view and saved views.
    id: 'cover',
    group: 'view',
    kind: 'toggle',
    labelKey: 'cover.toggle',
    checked: (s) => s.stock.query.cover === true,
    run: (c) => void c.stock.getState().setQuery({ cover: c.stock.getState().query.cover !== true }),
  },
  { id: 'views', group: 'view', kind: 'command', labelKey: 'views.label', icon: 'views', run: (c) => c.openView('views') },
  {
    id: 'columns',
    group: 'view',
    kind: 'command',
    labelKey: 'columns.button',
    labelVars: (s) => ({ count: s.stock.hidden.length }),
    icon: 'columns',
    run: (c) => c.openView('columns'),
  },
  { id: 'reorder', group: 'view', kind: 'command', labelKey: 'reorder.button', icon: 'belowReorder', run: (c) => c.openView('reorder') },
  { id: 'scanStore', group: 'view', kind: 'command', labelKey: 'scanner.store', icon: 'scan', run: (c) => c.openView('scanStore') },
  {
    id: 'transfer',
    group: 'edit',
    kind: 'command',
    labelKey: 'transfer.open',
    shortcut: 'Control+M',
    icon: 'transfer',
    run: (c) => c.stock.getState().openTransfer(),
  },
  { id: 'undo', group: 'edit', kind: 'command', labelKey: 'undo.button', shortcut: 'Control+Z', icon: 'undo', run: (c) => void c.stock.getState().undo() },
  ...REASON_ACTIONS,
];

/** The action's name in the current language (menus show a choice by its own name, `inMenu`). */
export function actionLabel(a: StockAction, s: ActionState, t: StockWords['t'], inMenu = false): string {
  if (inMenu && a.choice) return t(a.choice.labelKey);
  return t(a.labelKey, a.labelVars?.(s, t));
}

export const actionEnabled = (a: StockAction, s: ActionState): boolean => a.enabled?.(s) ?? true;

/** Folded for matching: case and accents do not matter ("deposito" finds "Depósito"). */
export const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();

/** Whether a name matches what was typed: every word typed is somewhere in the name. */
export function matches(name: string, typed: string): boolean {
  const words = fold(typed).split(/\s+/).filter(Boolean);
  const folded = fold(name);
  return words.every((word) => folded.includes(word));
}
