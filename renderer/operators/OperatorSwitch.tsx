import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { StockroomApi } from '../../common/contract/api.js';
import type { ApiError, OperatorView } from '../../common/contract/contract.js';
import { errorText } from '../i18n/errors.js';
import { useI18n } from '../i18n/index.js';
import { Dialog } from '../ui/Dialog.js';
import { operatorsStore, retryAfterSeconds } from './store.js';
import './operators.css';
import { Button } from '../ui/Button.js';

/**
 * Who is working at this workstation, always in the frame, with "Switch operator" (issue 27). Shown
 * once the workstation has operators; without any, nothing changes for anyone.
 */
export function OperatorSwitch({ api }: { api: StockroomApi }) {
  const { t } = useI18n();
  const store = operatorsStore(api);
  const view = useStore(store, (s) => s.view);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    void store.getState().load();
    return store.getState().start();
  }, [store]);
  // Back where the person was before the dialog, once it has gone: while it is there it keeps focus in.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  if (!view || (view.operators.length === 0 && view.current === null)) return null;
  const close = () => setOpen(false);
  return (
    <div className="operator-switch" data-operator={view.current?.id ?? ''}>
      <span className="operator-current">{view.current ? t('operators.current', { name: view.current.name }) : t('operators.none')}</span>{' '}
      <button ref={button} type="button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {t('operators.switch')}
      </button>
      {open ? <PinDialog api={api} operators={view.operators} current={view.current} onClose={close} /> : null}
    </div>
  );
}

/** The refusal of a switch in words: a wrong PIN, a lock with its seconds, else the core's error. */
function problemText(error: ApiError, t: ReturnType<typeof useI18n>['t'], language: ReturnType<typeof useI18n>['language']): string {
  if (error.code === 'unauthorized') return t('operators.wrongPin');
  if (error.code === 'too_many_requests') return t('operators.locked', { seconds: retryAfterSeconds(error) ?? 30 });
  return errorText(error, language);
}

/** Pick who, type the PIN, Enter: keyboard only, labelled, Esc closes. */
export function PinDialog({
  api,
  operators,
  current,
  onClose,
}: {
  api: StockroomApi;
  operators: OperatorView[];
  current: OperatorView | null;
  onClose: () => void;
}) {
  const { t, language } = useI18n();
  const id = useId();
  const store = operatorsStore(api);
  // Someone switching in is usually not the one signed in now.
  const [who, setWho] = useState(() => (operators.find((o) => o.id !== current?.id) ?? operators[0])?.id ?? 0);
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const pinInput = useRef<HTMLInputElement>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!/^[0-9]{4,8}$/.test(pin)) {
      setProblem(t('operators.invalidPin'));
      pinInput.current?.focus();
      return;
    }
    setBusy(true);
    void store
      .getState()
      .switchTo(who, pin)
      .then((r) => {
        setBusy(false);
        if (r.ok) return onClose();
        setPin('');
        setProblem(problemText(r.error, t, language));
        pinInput.current?.focus();
      });
  };
  const signOut = () => {
    setBusy(true);
    void store
      .getState()
      .signOut()
      .then((r) => {
        setBusy(false);
        if (r.ok) onClose();
        else setProblem(errorText(r.error, language));
      });
  };

  return (
    <Dialog title={t('operators.switch')} onClose={onClose} className="operator-dialog">
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-who`}>{t('operators.who')}</label>
          <select id={`${id}-who`} value={who} onChange={(e) => setWho(Number(e.target.value))}>
            {operators.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-pin`}>{t('operators.pin')}</label>
          <input
            ref={pinInput}
            id={`${id}-pin`}
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            value={pin}
            data-autofocus
            aria-invalid={problem !== null}
            aria-describedby={problem !== null ? `${id}-problem` : undefined}
            onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
          />
        </div>
        {problem !== null ? (
          <p id={`${id}-problem`} className="operator-problem" role="alert">
            <span aria-hidden="true">⚠ </span>
            {problem}
          </p>
        ) : null}
        <div className="actions">
          <Button type="submit" variant="primary" disabled={busy}>
            {t('operators.switchTo')}
          </Button>
          {current ? (
            <Button type="button" disabled={busy} onClick={signOut}>
              {t('operators.signOut')}
            </Button>
          ) : null}
          <Button type="button" onClick={onClose}>
            {t('common.cancel')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
