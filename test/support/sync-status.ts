import type { SyncStatusView } from '../../common/contract/contract.js';

/** A sync status as the core reports it: online, nothing queued, unless `s` says otherwise. */
export const syncStatus = (s: Partial<SyncStatusView> = {}): SyncStatusView => ({
  mode: 'online',
  online: true,
  unreachableSince: null,
  pending: 0,
  inFlight: 0,
  blocked: 0,
  conflicts: 0,
  failed: 0,
  unknown: 0,
  lastSyncAt: null,
  lastPullAt: null,
  lastError: null,
  progress: { done: 0, total: 0 },
  ...s,
});
