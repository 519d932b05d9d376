import { type DragEvent, type ReactNode, useRef, useState } from 'react';
import { useI18n } from '../i18n/index.js';
import { useInbox, useInboxActions } from './context.js';
import { MAX_FILES, MAX_FILE_BYTES } from './files.js';
import type { DraftFile } from './store.js';

const hasFiles = (e: DragEvent) => {
  const types = e.dataTransfer?.types;
  return !types || Array.from(types).includes('Files');
};

/**
 * Files dropped anywhere over the thread and the composer are attached to the draft of the open
 * conversation (checked on drop: size, count, name). Disabled when the conversation is blocked.
 */
export function DropZone({ packId, disabled, children }: { packId: number; disabled: boolean; children: ReactNode }) {
  const { t } = useI18n();
  const actions = useInboxActions();
  const depth = useRef(0);
  const [over, setOver] = useState(false);

  const onDragEnter = (e: DragEvent) => {
    if (disabled || !hasFiles(e)) return;
    e.preventDefault();
    depth.current++;
    setOver(true);
  };
  const onDragOver = (e: DragEvent) => {
    if (disabled || !hasFiles(e)) return;
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setOver(false);
  };
  const onDrop = (e: DragEvent) => {
    depth.current = 0;
    setOver(false);
    if (disabled) return;
    e.preventDefault();
    const files = Array.from(e.dataTransfer?.files ?? []);
    if (files.length > 0) actions.addFiles(packId, files);
  };

  return (
    <div className="drop-zone" data-over={over} onDragEnter={onDragEnter} onDragOver={onDragOver} onDragLeave={onDragLeave} onDrop={onDrop}>
      {children}
      {over ? (
        <div className="drop-overlay" aria-hidden="true">
          <span>⇩ {t('drop.zone')}</span>
        </div>
      ) : null}
    </div>
  );
}

/** The file picker and the files about to be sent (progress, remove), and what the last drop refused. */
export function DraftFiles({ packId, disabled }: { packId: number; disabled: boolean }) {
  const i = useI18n();
  const { t } = i;
  const actions = useInboxActions();
  const files = useInbox((s) => s.drafts[packId]?.files ?? NO_FILES);
  const refused = useInbox((s) => s.drafts[packId]?.refused ?? NO_REFUSALS);
  const input = useRef<HTMLInputElement>(null);

  return (
    <div className="draft-files">
      <p className="drop-hint">
        <span aria-hidden="true">▤ </span>
        {t('drop.hint')}{' '}
        <button type="button" className="link" disabled={disabled} onClick={() => input.current?.click()}>
          {t('drop.pick')}
        </button>
        {'. '}
        <span className="limits">{t('drop.limits', { files: MAX_FILES, size: i.formatBytes(MAX_FILE_BYTES) })}</span>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          aria-label={t('composer.attach')}
          disabled={disabled}
          onChange={(e) => {
            const chosen = Array.from(e.currentTarget.files ?? []);
            e.currentTarget.value = '';
            if (chosen.length > 0) actions.addFiles(packId, chosen);
          }}
        />
      </p>
      {refused.length > 0 ? (
        <div className="refused" role="alert">
          <p>
            <span aria-hidden="true">⚠ </span>
            <strong>{t('drop.refused')}</strong>
          </p>
          <ul>
            {refused.map((r, n) => (
              <li key={n}>{t(`drop.refused.${r.reason}`, { name: r.name, max: MAX_FILES })}</li>
            ))}
          </ul>
          <button type="button" onClick={() => actions.dismissRefused(packId)}>
            {t('common.close')}
          </button>
        </div>
      ) : null}
      {files.length > 0 ? (
        <ul className="files" aria-label={t('drop.files')}>
          {files.map((f) => (
            <FileRow key={f.key} file={f} onRemove={() => void actions.removeFile(packId, f.key)} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const NO_FILES: DraftFile[] = [];
const NO_REFUSALS: { name: string; reason: never }[] = [];

function FileRow({ file: f, onRemove }: { file: DraftFile; onRemove: () => void }) {
  const i = useI18n();
  const { t } = i;
  const state =
    f.state === 'ready' && f.flagged ? (
      <>
        <span aria-hidden="true">⚠ </span>
        {t('drop.flagged')}
      </>
    ) : f.state === 'ready' ? (
      <>
        <span aria-hidden="true">✓ </span>
        {t('drop.ready')}
      </>
    ) : f.state === 'failed' ? (
      <>
        <span aria-hidden="true">✕ </span>
        {t('drop.failed', { reason: f.error ?? '' })}
      </>
    ) : (
      t('drop.uploading')
    );
  return (
    <li className="file" data-state={f.state} data-flagged={f.flagged}>
      <span className="name">{f.name}</span> <span className="size">{i.formatBytes(f.size)}</span>{' '}
      <progress max={1} value={f.progress} aria-label={t('drop.progress', { name: f.name, percent: i.formatPercent(f.progress) })} />{' '}
      <span className="file-state">{state}</span>{' '}
      <button type="button" aria-label={t('drop.remove', { name: f.name })} onClick={onRemove}>
        <span aria-hidden="true">✕</span>
      </button>
    </li>
  );
}
