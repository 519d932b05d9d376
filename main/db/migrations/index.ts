import { stockMigration } from './001-stock.js';
import { jobsMigration } from './002-jobs.js';
import { brandsMigration } from './003-brands.js';
import { messagesMigration } from './004-messages.js';
import { attachmentsMigration } from './005-attachments.js';
import { oauthMigration } from './006-oauth.js';
import { syncMigration } from './007-sync.js';
import { productCountsMigration } from './008-product-counts.js';
import { unreadIndexMigration } from './009-unread-index.js';
import { outboxKeysMigration } from './010-outbox-keys.js';
import { passwordsMigration } from './011-passwords.js';
import { itemCodesMigration } from './012-item-codes.js';
import { reasonsTransfersMigration } from './013-reasons-transfers.js';
import { countSessionsMigration } from './014-count-sessions.js';
import { gridViewsMigration } from './015-grid-views.js';
import { orderDetailsMigration } from './016-order-details.js';
import { messageSearchMigration } from './017-message-search.js';
import { messagePackVersionsMigration } from './018-message-pack-versions.js';
import { messageSearchMarkMigration } from './019-message-search-mark.js';
import { dropMessagesByOrderMigration } from './020-drop-messages-by-order.js';
import { otherLocationTypesMigration } from './021-other-location-types.js';
import { outboxModelMigration } from './022-outbox-model.js';
import { openRemoteValuesMigration } from './023-open-remote-values.js';
import { remoteOtherLocationsMigration } from './024-remote-other-locations.js';
import { operatorsMigration } from './025-operators.js';
import { workstationPrefsMigration } from './026-workstation-prefs.js';
import { draftFilesMigration } from './027-draft-files.js';
import { importFingerprintsMigration } from './028-import-fingerprints.js';
import { stockReadMigration } from './029-stock-read.js';
import { searchFoldedMigration } from './030-search-folded.js';
import { orderItemsByItemMigration } from './031-order-items-by-item.js';
import { scanTallyMigration } from './032-scan-tally.js';
import { productChangesMigration } from './033-product-changes.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * Run with foreign keys off: a table rebuild that drops a table others reference (SQLite's
   * documented way). migrate() then checks that no reference broke before it commits.
   */
  foreignKeysOff?: boolean;
}

/** Applied in order at start-up; a migration never changes once it has shipped. */
// 003 is reserved for brands, 005 for attachments.
export const migrations: Migration[] = [
  stockMigration,
  jobsMigration,
  brandsMigration,
  messagesMigration,
  attachmentsMigration,
  oauthMigration,
  syncMigration,
  productCountsMigration,
  unreadIndexMigration,
  outboxKeysMigration,
  passwordsMigration,
  itemCodesMigration,
  reasonsTransfersMigration,
  countSessionsMigration,
  gridViewsMigration,
  orderDetailsMigration,
  messageSearchMigration,
  messagePackVersionsMigration,
  messageSearchMarkMigration,
  dropMessagesByOrderMigration,
  otherLocationTypesMigration,
  outboxModelMigration,
  openRemoteValuesMigration,
  remoteOtherLocationsMigration,
  operatorsMigration,
  workstationPrefsMigration,
  draftFilesMigration,
  importFingerprintsMigration,
  stockReadMigration,
  searchFoldedMigration,
  orderItemsByItemMigration,
  scanTallyMigration,
  productChangesMigration,
];
