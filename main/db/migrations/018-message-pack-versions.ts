import type { Migration } from './index.js';

/**
 * A version per conversation (pack), so that a reader may keep what it read of a pack in memory
 * (issue 17). Reading a page of a pack of 5,000 messages at an offset walked the index up to the
 * offset, counted the whole pack (paging.total) and built fifty messages' JSON on every request.
 * main/db/repos/messages.ts keeps the pack's orders, each reader's order of its messages and each
 * message's JSON instead; the pack's version, read in the same snapshot as the page (or alone,
 * when everything is kept), says whether the copy still holds.
 *
 * Triggers give the pack a new version on any change to one of its messages (inserted, deleted,
 * any column updated), to the attachments linked to one of them, or to one of its orders (which
 * orders a pack holds, and their state, are kept too). They see every write, from any connection
 * (the pull's mirror, raw SQL, the sqlite3 shell). A pack without a row has version 0.
 *
 * The version is random, not a counter: a transaction that rolls back puts the old version back,
 * and a counter would then hand the same number to a later, different change, while a copy made
 * inside the rolled-back transaction still carries it. A REPLACE that deletes a row fires no
 * delete trigger unless recursive_triggers is on: nothing writes messages, attachments or orders
 * that way (upserts use ON CONFLICT DO UPDATE).
 */
const bump = (pack: string) => `
  INSERT INTO message_pack_versions (pack_key, version) SELECT ${pack}, random() WHERE ${pack} IS NOT NULL
    ON CONFLICT (pack_key) DO UPDATE SET version = excluded.version;`;
const packOf = (message: string) => `(SELECT pack_key FROM messages WHERE id = ${message})`;

export const messagePackVersionsMigration: Migration = {
  version: 18,
  name: 'message-pack-versions',
  sql: `
CREATE TABLE message_pack_versions (
  pack_key INTEGER PRIMARY KEY,
  version  INTEGER NOT NULL
);

CREATE TRIGGER message_pack_versions_insert AFTER INSERT ON messages BEGIN${bump('NEW.pack_key')}
END;
CREATE TRIGGER message_pack_versions_delete AFTER DELETE ON messages BEGIN${bump('OLD.pack_key')}
END;
CREATE TRIGGER message_pack_versions_update AFTER UPDATE ON messages BEGIN${bump('OLD.pack_key')}${bump('NEW.pack_key')}
END;

CREATE TRIGGER message_pack_versions_attach AFTER INSERT ON attachments WHEN NEW.message_id IS NOT NULL BEGIN${bump(packOf('NEW.message_id'))}
END;
CREATE TRIGGER message_pack_versions_detach AFTER DELETE ON attachments WHEN OLD.message_id IS NOT NULL BEGIN${bump(packOf('OLD.message_id'))}
END;
CREATE TRIGGER message_pack_versions_attachment AFTER UPDATE ON attachments
WHEN OLD.message_id IS NOT NULL OR NEW.message_id IS NOT NULL
BEGIN${bump(packOf('OLD.message_id'))}${bump(packOf('NEW.message_id'))}
END;

CREATE TRIGGER message_pack_versions_order_insert AFTER INSERT ON orders BEGIN${bump('coalesce(NEW.pack_id, NEW.id)')}
END;
CREATE TRIGGER message_pack_versions_order_delete AFTER DELETE ON orders BEGIN${bump('coalesce(OLD.pack_id, OLD.id)')}
END;
CREATE TRIGGER message_pack_versions_order_update AFTER UPDATE ON orders BEGIN${bump('coalesce(OLD.pack_id, OLD.id)')}${bump('coalesce(NEW.pack_id, NEW.id)')}
END;
`,
};
