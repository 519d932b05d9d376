// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Composer } from '../../../renderer/inbox/Composer.js';
import { DropZone } from '../../../renderer/inbox/DropZone.js';
import { admitFiles, MAX_FILE_BYTES } from '../../../renderer/inbox/files.js';
import { fail, ok } from '../../support/fake-api.js';
import { renderInbox, resetRender } from './render.js';

afterEach(resetRender);

const PACK = 2000003000001;
/** Reading files in jsdom is slow on a busy machine: wait up to 15 s for the staging to finish. */

function fileOf(name: string, size = 3, type = 'text/plain'): File {
  const f = new File(['x'.repeat(Math.min(size, 64))], name, { type });
  if (size !== f.size) Object.defineProperty(f, 'size', { value: size });
  return f;
}

let staged = 0;
const stagingApi = {
  messages: {
    stageFile: (p: { name: string; bytes: Uint8Array; type?: string }) =>
      ok({ fileId: (++staged).toString(16).padStart(32, '0'), name: p.name, size: p.bytes.byteLength, type: p.type ?? null }),
    discardFile: (p: { fileId: string }) => ok({ fileId: p.fileId }),
  },
};

function setup(blocked: string | null = null) {
  const r = renderInbox(
    () => (
      <DropZone packId={PACK} disabled={blocked !== null}>
        <div data-testid="thread">thread</div>
        <Composer packId={PACK} blocked={blocked} />
      </DropZone>
    ),
    stagingApi,
  );
  const drop = (files: File[], on: Element = screen.getByTestId('thread')) => {
    const dataTransfer = { files, types: ['Files'], dropEffect: 'none' };
    fireEvent.dragEnter(on, { dataTransfer });
    fireEvent.dragOver(on, { dataTransfer });
    fireEvent.drop(on, { dataTransfer });
  };
  const fileRows = () =>
    screen.queryByRole('list', { name: 'Files to send' }) ? within(screen.getByRole('list', { name: 'Files to send' })).getAllByRole('listitem') : [];
  return { ...r, drop, fileRows };
}

describe('drop zone', () => {
  it('attaches files dropped on the thread, shows progress, and each is removable before sending', async () => {
    const { drop, fileRows, fake } = setup();
    drop([fileOf('factura.pdf', 2048, 'application/pdf'), fileOf('foto.png', 10, 'image/png')]);
    expect(fileRows().map((r) => r.querySelector('.name')!.textContent)).toEqual(['factura.pdf', 'foto.png']);
    expect(fileRows()[0]!.querySelector('progress')).toBeTruthy();
    expect(fileRows()[0]!.textContent).toContain('2 KB');
    await waitFor(() => expect(fileRows().every((r) => r.getAttribute('data-state') === 'ready')).toBe(true));
    expect((fileRows()[0]!.querySelector('progress') as HTMLProgressElement).value).toBe(1);
    expect(fake.callsTo('messages.stageFile').map((p) => (p as { name: string }).name)).toEqual(['factura.pdf', 'foto.png']);

    fireEvent.click(screen.getByRole('button', { name: 'Remove factura.pdf' }));
    await waitFor(() => expect(fake.callsTo('messages.discardFile')).toHaveLength(1));
    expect(fileRows().map((r) => r.querySelector('.name')!.textContent)).toEqual(['foto.png']);
  });

  it('sends the staged files with the text', async () => {
    const { drop, fileRows, fake } = setup();
    fake.on({ messages: { send: () => ok({ status: 'queued', entryId: 3, warnings: [] }) } });
    drop([fileOf('factura.pdf', 100, 'application/pdf')], screen.getByRole('textbox', { name: 'Your reply' }));
    await waitFor(() => expect(fileRows()[0]?.getAttribute('data-state')).toBe('ready'));
    fireEvent.change(screen.getByRole('textbox', { name: 'Your reply' }), { target: { value: 'Te paso la factura.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(fake.callsTo('messages.send')).toHaveLength(1));
    const sent = fake.callsTo('messages.send')[0] as { text: string; fileIds: string[] };
    expect(sent.text).toBe('Te paso la factura.');
    expect(sent.fileIds).toHaveLength(1);
    await waitFor(() => expect(fileRows()).toHaveLength(0));
  });

  it('refuses the 26th file on drop and keeps the first 25', async () => {
    const { drop, fileRows } = setup();
    drop(Array.from({ length: 26 }, (_, n) => fileOf(`foto-${n + 1}.jpg`, 5, 'image/jpeg')));
    expect(fileRows()).toHaveLength(25);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('foto-26.jpg: a message can carry at most 25 files.');
    expect(alert.textContent).not.toContain('foto-25.jpg');
    // A later drop is refused as well while 25 are attached.
    drop([fileOf('otra.jpg')]);
    expect(screen.getByRole('alert').textContent).toContain('otra.jpg: a message can carry at most 25 files.');
    expect(fileRows()).toHaveLength(25);
    await waitFor(() => expect(fileRows().every((r) => r.getAttribute('data-state') === 'ready')).toBe(true));
  });

  it('refuses a file of 25 MB + 1 byte and accepts one of exactly 25 MB', () => {
    expect(admitFiles([], [{ name: 'ok.bin', size: MAX_FILE_BYTES }]).accepted).toHaveLength(1);
    const { drop, fileRows, fake } = setup();
    drop([fileOf('video.mp4', MAX_FILE_BYTES + 1, 'video/mp4')]);
    expect(screen.getByRole('alert').textContent).toContain('video.mp4 is bigger than 25 MB.');
    expect(fileRows()).toHaveLength(0);
    expect(fake.callsTo('messages.stageFile')).toHaveLength(0);
  });

  it('refuses a bad file name (path separators, control characters) and an empty file', () => {
    const { drop, fileRows } = setup();
    drop([fileOf('..\\secret.txt'), fileOf('a/b.txt'), fileOf('tab\there.txt'), fileOf('vacío.txt', 0), fileOf('bien.txt')]);
    const text = screen.getByRole('alert').textContent!;
    expect(text).toContain('..\\secret.txt: a file name cannot include characters like / or \\.');
    expect(text).toContain('a/b.txt: a file name cannot include characters like / or \\.');
    expect(text).toContain('A file name cannot include control characters.');
    expect(text).toContain('vacío.txt is empty.');
    expect(fileRows().map((r) => r.querySelector('.name')!.textContent)).toEqual(['bien.txt']);
    fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses names with invisible or direction-changing characters, and dot-only names', () => {
    const { drop, fileRows } = setup();
    drop([fileOf('factura\u202Efdp.exe'), fileOf('..'), fileOf('bien.txt')]);
    const text = screen.getByRole('alert').textContent!;
    expect(text).toContain('A file name cannot include invisible or direction-changing characters.');
    expect(text).toContain('A file name cannot be only dots.');
    expect(fileRows().map((r) => r.querySelector('.name')!.textContent)).toEqual(['bien.txt']);
  });

  it('shows a failed staging with its reason, and the file can still be removed', async () => {
    const { drop, fileRows, fake } = setup();
    fake.on({ messages: { stageFile: () => fail('internal_error', 'disk full', 500) } });
    drop([fileOf('factura.pdf')]);
    await waitFor(() => expect(fileRows()[0]?.getAttribute('data-state')).toBe('failed'));
    expect(fileRows()[0]!.textContent).toContain('Failed: disk full');
    fireEvent.click(screen.getByRole('button', { name: 'Remove factura.pdf' }));
    expect(fileRows()).toHaveLength(0);
    expect(fake.callsTo('messages.discardFile')).toHaveLength(0);
  });

  it('takes files from the file picker too', async () => {
    const { fileRows } = setup();
    const input = screen.getByLabelText<HTMLInputElement>('Attach files');
    fireEvent.change(input, { target: { files: [fileOf('remito.pdf', 50, 'application/pdf')] } });
    await waitFor(() => expect(fileRows()[0]?.getAttribute('data-state')).toBe('ready'));
  });

  it('ignores drops on a blocked conversation', () => {
    const { drop, fileRows, fake } = setup('blocked_by_cancelled_order');
    drop([fileOf('factura.pdf')]);
    expect(fileRows()).toHaveLength(0);
    expect(fake.callsTo('messages.stageFile')).toHaveLength(0);
  });
});
