import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QUICK_REPLIES_FILE } from '../../main/desktop/quick-replies.js';
import { failure, openCore, value } from './helpers.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.close();
});

describe('quick replies (messages.quickReplies / messages.saveQuickReplies)', () => {
  it('start empty, are saved in the data folder and survive a restart', async () => {
    const first = await openCore();
    expect(value(await first.core.api.messages.quickReplies())).toEqual([]);
    const replies = [
      { id: 'thanks', title: 'Gracias', text: '¡Gracias por tu compra!' },
      { id: 'ship', title: 'Envío', text: 'Lo despachamos hoy.' },
    ];
    expect(value(await first.core.api.messages.saveQuickReplies({ replies }))).toEqual(replies);
    expect(JSON.parse(readFileSync(join(first.dir, QUICK_REPLIES_FILE), 'utf8'))).toMatchObject({ version: 1, replies });
    await first.core.close();

    const again = await openCore({ dataDir: first.dir });
    opened.push(again);
    expect(value(await again.core.api.messages.quickReplies())).toEqual(replies);
  });

  it('refuse bad input and change nothing: empty text, duplicate ids, a bad id', async () => {
    const c = await openCore();
    opened.push(c);
    const kept = [{ id: 'a', title: 'A', text: 'Hola' }];
    value(await c.core.api.messages.saveQuickReplies({ replies: kept }));
    expect(failure(await c.core.api.messages.saveQuickReplies({ replies: [{ id: 'b', title: 'B', text: '   ' }] })).code).toBe('bad_request');
    expect(failure(await c.core.api.messages.saveQuickReplies({ replies: [kept[0]!, kept[0]!] })).status).toBe(400);
    expect(failure(await c.core.api.messages.saveQuickReplies({ replies: [{ id: '../x', title: 'B', text: 'x' }] })).code).toBe('bad_request');
    expect(value(await c.core.api.messages.quickReplies())).toEqual(kept);
  });
});
