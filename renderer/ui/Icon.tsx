/**
 * The app's icons (lucide-react): only the ones named here reach the bundle (each is its own
 * module; the package has no side effects). Icons always sit next to words, so they are hidden
 * from assistive technology.
 */
import {
  ArrowLeftRight,
  BellRing,
  Bookmark,
  Check,
  ChevronDown,
  ClipboardList,
  Columns3,
  Command,
  Download,
  FileSpreadsheet,
  FileText,
  Filter,
  History,
  Pencil,
  Plus,
  ScanBarcode,
  Search,
  SlidersHorizontal,
  Tag,
  TrendingDown,
  Undo2,
  Upload,
  Warehouse,
  X,
} from 'lucide-react';

const ICONS = {
  belowReorder: BellRing,
  check: Check,
  chevron: ChevronDown,
  close: X,
  columns: Columns3,
  command: Command,
  count: ClipboardList,
  edit: Pencil,
  exportCsv: Download,
  exportXlsx: FileSpreadsheet,
  file: FileText,
  filter: Filter,
  history: History,
  import: Upload,
  lowStock: TrendingDown,
  newListing: Plus,
  reason: Tag,
  scan: ScanBarcode,
  search: Search,
  store: Warehouse,
  transfer: ArrowLeftRight,
  undo: Undo2,
  view: SlidersHorizontal,
  views: Bookmark,
} as const;

export type IconName = keyof typeof ICONS;

export function Icon({ name, size = 16 }: { name: IconName; size?: number }) {
  const Glyph = ICONS[name];
  return <Glyph className="ui-icon" size={size} aria-hidden="true" focusable="false" strokeWidth={1.75} />;
}
