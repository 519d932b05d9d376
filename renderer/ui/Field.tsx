import { type ReactNode, useId } from 'react';
import './controls.css';

/** What the control needs to be wired to its label and its hint or error. */
export interface FieldControl {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

/**
 * A labelled control: the label, the control (given its id and the hint's by `children`), then the
 * hint, or the error in its place (said with a sign, not by colour alone). The control stays the
 * caller's own element: a native <select> keeps the scanner's and the keyboard's type-ahead.
 */
export function Field({
  label,
  hint,
  error,
  className,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  className?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const id = useId();
  const said = error ?? hint;
  const hintId = said ? `${id}-hint` : undefined;
  return (
    <div className={className ? `ui-field ${className}` : 'ui-field'}>
      <label className="ui-field-label" htmlFor={id}>
        {label}
      </label>
      {children({ id, 'aria-describedby': hintId, 'aria-invalid': error ? true : undefined })}
      {error ? (
        <p id={hintId} className="ui-field-hint" data-invalid="true">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : hint ? (
        <p id={hintId} className="ui-field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
