import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ConversationView, QuickReplyView } from '../../common/contract/contract.js';
import { errorDetail, errorText } from '../i18n/errors.js';
import { useI18n } from '../i18n/index.js';
import { TEMPLATE_FIELDS, type TemplateValues, checkComposer, fillTemplate, templateValues, unknownFields } from './compose.js';
import { useInbox, useInboxActions } from './context.js';
import { warningText } from './words.js';

const newId = () => `q${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/**
 * Saved replies the seller inserts into the reply (kept by the core in the data folder). They are
 * templates: `{buyer_first_name}`, `{product}` and `{order_id}` are filled from the open
 * conversation, and each reply shows its filled text with the composer's own checks (length,
 * refused characters, moderation) before it is inserted. The panel opens upward, inside the
 * window; one form saves a new reply (its text starts as what is in the reply box). Escape closes
 * the panel and returns to the button.
 */
export function QuickReplies({
  packId,
  disabled,
  text,
  conversation,
  max,
}: {
  packId: number;
  disabled: boolean;
  text: string;
  conversation: ConversationView | null;
  max: number;
}) {
  const { t, language, formatList } = useI18n();
  const actions = useInboxActions();
  const quick = useInbox((s) => s.quick);
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const values = useMemo(() => templateValues(conversation), [conversation]);

  useEffect(() => {
    if (open && quick.status === 'idle') void actions.loadQuickReplies();
  }, [open, quick.status, actions]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const save = async (replies: QuickReplyView[]) => actions.saveQuickReplies(replies);
  const opening = () => {
    // The new reply's text starts as what is being written (the one way to save it).
    if (!open && body.trim() === '' && text.trim() !== '') setBody(text);
    setOpen(!open);
  };

  return (
    <div className="quick-replies">
      <button ref={toggle} type="button" aria-expanded={open} aria-controls={panelId} disabled={disabled} onClick={opening}>
        {t('composer.quickReplies')} <span aria-hidden="true">{open ? '▾' : '▴'}</span>
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
            <p role="alert" title={errorDetail(quick.error, language)}>
              {t('common.error', { message: errorText(quick.error, language) })}{' '}
              <button type="button" onClick={() => void actions.loadQuickReplies()}>
                {t('common.retry')}
              </button>
            </p>
          ) : quick.replies.length === 0 ? (
            <p className="state empty">{t('quick.empty')}</p>
          ) : (
            <ul className="quick-list">
              {quick.replies.map((r) => (
                <li key={r.id} className="quick-reply" data-id={r.id}>
                  <div className="quick-head">
                    <button
                      type="button"
                      className="insert"
                      aria-label={t('quick.insert', { title: r.title })}
                      onClick={() => {
                        actions.insertText(packId, fillTemplate(r.text, values).text);
                        close();
                      }}
                    >
                      {r.title}
                    </button>
                    <button
                      type="button"
                      className="link"
                      aria-label={t('quick.delete', { title: r.title })}
                      onClick={() => void save(quick.replies.filter((x) => x.id !== r.id))}
                    >
                      <span aria-hidden="true">✕</span>
                    </button>
                  </div>
                  <Preview template={r.text} values={values} max={max} />
                </li>
              ))}
            </ul>
          )}
          {quick.status === 'error' && quick.replies.length > 0 ? (
            <p role="alert" title={errorDetail(quick.error, language)}>
              {t('common.error', { message: errorText(quick.error, language) })}
            </p>
          ) : null}
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
            {unknownFields(body).length > 0 ? (
              <p className="problem unknown-field" role="alert">
                <span aria-hidden="true">✕ </span>
                {t('quick.unknownFields', { fields: formatList(unknownFields(body)), known: formatList(TEMPLATE_FIELDS.map((f) => `{${f}}`)) })}
              </p>
            ) : null}
            <p className="quick-fields">
              {t('quick.fields')}{' '}
              {TEMPLATE_FIELDS.map((f) => (
                <button
                  key={f}
                  type="button"
                  className="link"
                  onClick={() => setBody(`${body}{${f}}`)}
                  aria-label={t('quick.addField', { field: t(`quick.field.${f}`) })}
                >
                  {`{${f}}`}
                </button>
              ))}
            </p>
            <button type="submit" disabled={title.trim() === '' || body.trim() === ''}>
              {t('quick.add')}
            </button>
          </form>
        </div>
      ) : null}
    </div>
  );
}

/** A reply as it would be inserted here: fields filled (an empty one marked), then the composer's checks. */
function Preview({ template, values, max }: { template: string; values: TemplateValues; max: number }) {
  const i = useI18n();
  const { t } = i;
  const filled = useMemo(() => fillTemplate(template, values), [template, values]);
  const check = useMemo(() => checkComposer(filled.text, max), [filled.text, max]);
  const unknown = useMemo(() => unknownFields(template), [template]);
  return (
    <div className="quick-preview">
      <p className="preview-text" aria-label={t('quick.preview')}>
        {filled.parts.map((p, n) =>
          'field' in p ? (
            p.value === '' ? (
              <span key={n} className="field missing" data-field={p.field}>
                {t('quick.fieldEmpty', { field: t(`quick.field.${p.field}`) })}
              </span>
            ) : (
              <span key={n} className="field" data-field={p.field}>
                {p.value}
              </span>
            )
          ) : (
            <span key={n}>{p.text}</span>
          ),
        )}
      </p>
      {unknown.length > 0 || filled.missing.length > 0 || check.over > 0 || check.unsupported.length > 0 || check.warnings.length > 0 ? (
        <ul className="quick-problems">
          {unknown.length > 0 ? (
            <li className="problem unknown-field">
              <span aria-hidden="true">✕ </span>
              {t('quick.unknownFields', { fields: i.formatList(unknown), known: i.formatList(TEMPLATE_FIELDS.map((f) => `{${f}}`)) })}
            </li>
          ) : null}
          {filled.missing.length > 0 ? (
            <li className="missing">
              <span aria-hidden="true">ℹ </span>
              {t('quick.missing', { fields: i.formatList(filled.missing.map((f) => t(`quick.field.${f}`))) })}
            </li>
          ) : null}
          {check.over > 0 ? (
            <li className="problem">
              <span aria-hidden="true">✕ </span>
              {t('composer.tooLong', { count: check.over, max })}
            </li>
          ) : null}
          {check.unsupported.length > 0 ? (
            <li className="problem">
              <span aria-hidden="true">✕ </span>
              {t('composer.unsupported', {
                count: check.unsupported.length,
                chars: i.formatList([...new Set(check.unsupported.map((u) => `${u.char} (${u.codePoint})`))]),
              })}
            </li>
          ) : null}
          {check.warnings.map((w) => (
            <li key={`${w.reason}-${w.index}`} className="warning" data-reason={w.reason}>
              <span aria-hidden="true">⚠ </span>
              {warningText(i, w.reason, w.match)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
