import type { Migration } from './index.js';

/**
 * Choices a workstation makes for itself and keeps across reloads and restarts, such as the store
 * scans go to (issue 27): one row per name, its value as text (the desktop core parses it). A
 * profile's database belongs to one workstation (each has its own replica), so a row here is per
 * profile and per workstation; never sent anywhere.
 */
export const workstationPrefsMigration: Migration = {
  version: 26,
  name: 'workstation-prefs',
  sql: `
CREATE TABLE workstation_prefs (
  name  TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 64),
  value TEXT NOT NULL CHECK (length(value) <= 1000)
) WITHOUT ROWID;
`,
};
