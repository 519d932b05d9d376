import { type FormEvent, useEffect, useId, useState } from 'react';
import { useStore } from 'zustand';
import type { StockroomApi } from '../../common/contract/api.js';
import { errorText } from '../i18n/errors.js';
import { useI18n } from '../i18n/index.js';
import { Button } from '../ui/Button.js';
import { Field } from '../ui/Field.js';
import { operatorsStore } from './store.js';
import './operators.css';

type Input = 'name' | 'pin';

/**
 * Settings › Operators (issue 27): the people of this workstation, added with a name and a PIN,
 * removed with one button (their past changes keep their name). Switching is in the frame.
 */
export function OperatorsSettings({ api }: { api: StockroomApi }) {
  const { t, language } = useI18n();
  const id = useId();
  const store = operatorsStore(api);
  const view = useStore(store, (s) => s.view);
  const [name, setName] = useState('');
  const [pin, setPin] = useState('');
  const [invalid, setInvalid] = useState<Partial<Record<Input, string>>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    void store.getState().load();
  }, [store]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems: Partial<Record<Input, string>> = {};
    if (name.trim() === '') problems.name = t('operators.invalidName');
    if (!/^[0-9]{4,8}$/.test(pin)) problems.pin = t('operators.invalidPin');
    setInvalid(problems);
    setResult(null);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    const added = name.trim();
    void store
      .getState()
      .add(added, pin)
      .then((r) => {
        setBusy(false);
        if (r.ok) {
          setName('');
          setPin('');
          setResult({ ok: true, text: t('operators.added', { name: added }) });
        } else if (r.error.code === 'conflict') setInvalid({ name: t('operators.nameTaken') });
        else setResult({ ok: false, text: errorText(r.error, language) });
      });
  };
  const remove = (who: { id: number; name: string }) => {
    setResult(null);
    void store
      .getState()
      .remove(who.id)
      .then((r) => setResult(r.ok ? { ok: true, text: t('operators.removed', { name: who.name }) } : { ok: false, text: errorText(r.error, language) }));
  };

  const field = (f: Input, label: string, value: string, set: (v: string) => void, extra: { type?: string; inputMode?: 'numeric' } = {}) => (
    <Field label={label} error={invalid[f]}>
      {(control) => (
        <input
          {...control}
          type={extra.type ?? 'text'}
          inputMode={extra.inputMode}
          autoComplete="off"
          spellCheck={false}
          value={value}
          maxLength={f === 'pin' ? 8 : 60}
          onChange={(e) => set(e.target.value)}
        />
      )}
    </Field>
  );

  const operators = view?.operators ?? [];
  return (
    <section className="settings-operators" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('operators.title')}</h3>
      <p className="hint">{t('operators.hint')}</p>
      {operators.length === 0 ? (
        <p>{t('operators.empty')}</p>
      ) : (
        <ul className="operators" aria-labelledby={`${id}-title`}>
          {operators.map((o) => (
            <li key={o.id}>
              <span>
                {o.name}
                {view?.current?.id === o.id ? ` ${t('operators.signedInNow')}` : ''}
              </span>
              <Button size="sm" variant="danger" aria-label={t('operators.removeNamed', { name: o.name })} onClick={() => remove(o)}>
                {t('common.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} noValidate>
        <fieldset>
          <legend>{t('operators.add')}</legend>
          {field('name', t('operators.name'), name, setName)}
          {field('pin', t('operators.newPin'), pin, (v) => setPin(v.replace(/\D/g, '')), { type: 'password', inputMode: 'numeric' })}
          <div className="actions">
            <Button type="submit" variant="primary" disabled={busy}>
              {t('operators.add')}
            </Button>
            {result ? (
              <p className={result.ok ? 'result saved' : 'result error'} role={result.ok ? 'status' : 'alert'}>
                <span aria-hidden="true">{result.ok ? '✓ ' : '⚠ '}</span>
                {result.text}
              </p>
            ) : null}
          </div>
        </fieldset>
      </form>
    </section>
  );
}
