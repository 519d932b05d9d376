import { stockMigration } from './001-stock.js';
import { jobsMigration } from './002-jobs.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Applied in order at start-up; a migration never changes once it has shipped. */
export const migrations: Migration[] = [stockMigration, jobsMigration];
