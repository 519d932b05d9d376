import { useEffect, useId, useRef, useState } from 'react';
import type { QuickReplyView } from '../../preload/contract.js';
import { useI18n } from '../i18n/index.js';
import { useInbox, useInboxActions } from './context.js';

const newId = () => `q${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/**
 * Saved texts the seller inserts into the reply (kept by the core in the data folder). A button
 * opens the list; each reply is inserted with one click or Enter; the current text can be saved as
 * a new one, and a reply can be deleted. Escape closes the list and returns to the button.
 */
export function QuickReplies({ packId, disabled, text }: { packId: number; disabled: boolean; text: string }) {
  const { t } = useI18n();
  const actions = useInboxActions();
  const quick = useInbox((s) => s.quick);
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (open && quick.status === 'idle') void actions.loadQuickReplies();
  }, [open, quick.status, actions]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const save = async (replies: QuickReplyView[]) => actions.saveQuickReplies(replies);

  return (
    <div className="quick-replies">
      <button ref={toggle} type="button" aria-expanded={open} aria-controls={panelId} disabled={disabled} onClick={() => setOpen(!open)}>
        {t('composer.quickReplies')} <span aria-hidden="true">{open ? '▴' : '▾'}</span>
      </button>
      {open ? (
        <div
          id={panelId}
          className="quick-panel"
          role="group"
          aria-label={t('quick.title')}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close();
            }
          }}
        >
          {quick.status === 'loading' || quick.status === 'idle' ? (
            <p role="status">{t('common.loading')}</p>
          ) : quick.status === 'error' && quick.replies.length === 0 ? (
            <p role="alert">
              {t('common.error', { message: quick.error?.message ?? '' })}{' '}
              <button type="button" onClick={() => void actions.loadQuickReplies()}>
                {t('common.retry')}
              </button>
            </p>
          ) : quick.replies.length === 0 ? (
            <p className="state empty">{t('quick.empty')}</p>
          ) : (
            <ul>
              {quick.replies.map((r) => (
                <li key={r.id}>
                  <button
                    type="button"
                    className="insert"
                    title={r.text}
                    aria-label={t('quick.insert', { title: r.title })}
                    onClick={() => {
                      actions.insertText(packId, r.text);
                      close();
                    }}
                  >
                    {r.title}
                  </button>{' '}
                  <button
                    type="button"
                    className="link"
                    aria-label={t('quick.delete', { title: r.title })}
                    onClick={() => void save(quick.replies.filter((x) => x.id !== r.id))}
                  >
                    <span aria-hidden="true">✕</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {quick.status === 'error' && quick.replies.length > 0 ? <p role="alert">{t('common.error', { message: quick.error?.message ?? '' })}</p> : null}
          <form
            className="quick-new"
            aria-label={t('quick.new')}
            onSubmit={(e) => {
              e.preventDefault();
              if (title.trim() === '' || body.trim() === '') return;
              void save([...quick.replies, { id: newId(), title: title.trim(), text: body }]).then((ok) => {
                if (ok) {
                  setTitle('');
                  setBody('');
                }
              });
            }}
          >
            <label>
              {t('quick.titleLabel')} <input value={title} maxLength={80} onChange={(e) => setTitle(e.target.value)} />
            </label>
            <label>
              {t('quick.textLabel')} <textarea value={body} rows={2} onChange={(e) => setBody(e.target.value)} />
            </label>
            <button type="button" className="link" disabled={text.trim() === ''} onClick={() => setBody(text)}>
              {t('quick.saveCurrent')}
            </button>{' '}
            <button type="submit" disabled={title.trim() === '' || body.trim() === ''}>
              {t('quick.add')}
            </button>
          </form>
        </div>
      ) : null}
    </div>
  );
}
