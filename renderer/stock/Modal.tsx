import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [href], [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: labelled by its title, focus moves in on open and stays inside (Tab cycles), Esc
 * closes. The opener gets focus back through the stock store when the dialog closes.
 *
 * Focus goes to the element marked `data-autofocus`, else the first control; with
 * `initialFocus="dialog"` to the dialog itself, where Enter does nothing: a dialog whose every
 * choice changes stock (the conflict dialog) is never answered by a stray Enter (a scanner's).
 */
export function Modal({
  title,
  onClose,
  children,
  className,
  describedBy,
  initialFocus = 'first',
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  describedBy?: string;
  initialFocus?: 'first' | 'dialog';
}) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const first = initialFocus === 'dialog' ? null : (el.querySelector<HTMLElement>('[data-autofocus]') ?? el.querySelector<HTMLElement>(FOCUSABLE));
    (first ?? el).focus();
    // Where focus goes is decided once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      e.preventDefault();
      onClose();
      return;
    }
    if (e.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
  return (
    <div className="modal-backdrop">
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        className={`modal ${className ?? ''}`}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
