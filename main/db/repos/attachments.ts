import type { Db } from '../open.js';

export interface AttachmentRow {
  id: string;
  uploader_id: number;
  site_id: string;
  original_filename: string;
  media_type: string;
  size: number;
  /** NULL for metadata seeded from fixtures without bytes. */
  sha256: string | null;
  potential_security_threat: number;
  /** Epoch milliseconds. */
  created_at: number;
  message_id: string | null;
  position: number | null;
}

export type NewAttachment = Omit<AttachmentRow, 'potential_security_threat' | 'message_id' | 'position'> & {
  potential_security_threat: boolean;
};

/** Who may read the files of a message: the parties of its order, once the message is delivered. */
export interface MessageParties {
  from_user_id: number;
  to_user_id: number;
  seller_id: number;
  buyer_id: number;
  /** The message's moderation status (migration 004): only clean and non_moderated messages reach the recipient. */
  moderation_status: string;
}

/** Uploaded attachments and their link to messages (migration 005). */
export function attachmentsRepo(db: Db) {
  const insert = db.prepare<[Record<string, unknown>]>(
    `INSERT INTO attachments (id, uploader_id, site_id, original_filename, media_type, size, sha256,
       potential_security_threat, created_at, message_id, position)
     VALUES (@id, @uploader_id, @site_id, @original_filename, @media_type, @size, @sha256,
       @potential_security_threat, @created_at, @message_id, @position)`,
  );
  const byId = db.prepare<[string], AttachmentRow>('SELECT * FROM attachments WHERE id = ?');
  const fileOf = db.prepare<[string], Pick<AttachmentRow, 'site_id' | 'original_filename' | 'media_type'>>(
    'SELECT site_id, original_filename, media_type FROM attachments WHERE id = ?',
  );
  const attach = db.prepare<[string, number, string]>('UPDATE attachments SET message_id = ?, position = ? WHERE id = ? AND message_id IS NULL');
  // One query for a whole page of messages: the ids travel as one JSON array parameter.
  const ofMessages = db.prepare<[string], AttachmentRow>(
    `SELECT * FROM attachments
      WHERE message_id IN (SELECT value FROM json_each(?))
      ORDER BY message_id, position`,
  );
  const ofMessage = db.prepare<[string], AttachmentRow>('SELECT * FROM attachments WHERE message_id = ? ORDER BY position');
  const deleteUnattached = db.prepare<[string], { sha256: string | null }>('DELETE FROM attachments WHERE id = ? AND message_id IS NULL RETURNING sha256');
  const deleteById = db.prepare<[string]>('DELETE FROM attachments WHERE id = ?');
  const countBySha = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM attachments WHERE sha256 = ?');
  const markThreat = db.prepare<[string]>('UPDATE attachments SET potential_security_threat = 1 WHERE id = ?');
  const partiesOf = db.prepare<[string], MessageParties>(
    `SELECT m.from_user_id, m.to_user_id, o.seller_id, o.buyer_id, m.moderation_status
       FROM messages m JOIN orders o ON o.id = m.order_id
      WHERE m.id = ?`,
  );
  const siteOfMessage = db.prepare<[string], { site_id: string; from_user_id: number }>(
    'SELECT o.site_id, m.from_user_id FROM messages m JOIN orders o ON o.id = m.order_id WHERE m.id = ?',
  );

  const row = (a: NewAttachment, messageId: string | null, position: number | null) => ({
    ...a,
    potential_security_threat: a.potential_security_threat ? 1 : 0,
    message_id: messageId,
    position,
  });

  return {
    insert: (a: NewAttachment) => insert.run(row(a, null, null)),
    byId: (id: string) => byId.get(id),
    /** What a download needs of an attachment: its site, file name and media type. */
    fileOf: (id: string) => fileOf.get(id),
    /** Links an unattached upload; false when it is gone or already linked. */
    attach: (messageId: string, id: string, position: number) => attach.run(messageId, position, id).changes === 1,
    ofMessages: (messageIds: string[]) => ofMessages.all(JSON.stringify(messageIds)),
    ofMessage: (messageId: string) => ofMessage.all(messageId),
    /** Deletes the row when it is still unattached; returns its content hash, undefined when nothing was deleted. */
    deleteUnattached: (id: string) => deleteUnattached.get(id),
    deleteById: (id: string) => deleteById.run(id).changes === 1,
    countBySha: (sha256: string) => countBySha.get(sha256)!.n,
    markThreat: (id: string) => markThreat.run(id),
    partiesOf: (messageId: string) => partiesOf.get(messageId),

    /**
     * Fixture attachments (metadata only, no bytes): linked to their message at once, uploaded by
     * its sender on the site of its order. Call after the message rows exist.
     */
    insertForMessage: (
      messageId: string,
      list: { filename: string; original_filename: string; type: string; size: number; potential_security_threat: boolean; creation_date: string }[],
    ) => {
      const owner = siteOfMessage.get(messageId);
      if (!owner) throw new Error(`attachments: message ${messageId} does not exist`);
      list.forEach((a, position) =>
        insert.run(
          row(
            {
              id: a.filename,
              uploader_id: owner.from_user_id,
              site_id: owner.site_id,
              original_filename: a.original_filename,
              media_type: a.type,
              size: a.size,
              sha256: null,
              potential_security_threat: a.potential_security_threat,
              created_at: Date.parse(a.creation_date),
            },
            messageId,
            position,
          ),
        ),
      );
    },
  };
}
export type AttachmentsRepo = ReturnType<typeof attachmentsRepo>;
