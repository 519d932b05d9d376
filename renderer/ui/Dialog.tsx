/**
 * The app's modal dialog, on Radix Dialog: labelled by its title, optionally described, focus moves
 * in on open and stays inside (Tab cycles, a click or focus elsewhere comes back), Esc closes. The
 * opener gets focus back through the stock store when the dialog closes, not from here.
 *
 * Focus goes to the element marked `data-autofocus`, else the first control; with
 * `initialFocus="dialog"` to the dialog itself, where Enter does nothing: a dialog whose every
 * choice changes stock (the conflict dialog) is never answered by a stray Enter (a scanner's).
 *
 * Not Radix's modal mode: its scroll lock injects a <style> element, which the app's CSP
 * (style-src 'self') refuses. The same modality is composed from CSP-safe parts instead: a
 * trapped FocusScope (the copy Radix Dialog itself uses, so the two share one stack), aria-modal,
 * and an overlay that takes the pointer. Nothing behind it is aria-hidden: the scanning notice
 * under the toolbar is a live region that must still be heard while a dialog is open.
 */
import * as RadixDialog from '@radix-ui/react-dialog';
import { FocusScope } from '@radix-ui/react-focus-scope';
import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import './dialog.css';

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [href], [tabindex]:not([tabindex="-1"])';

export function Dialog({
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
  const focusIn = (e: Event) => {
    e.preventDefault();
    const el = ref.current;
    if (!el) return;
    const first = initialFocus === 'dialog' ? null : (el.querySelector<HTMLElement>('[data-autofocus]') ?? el.querySelector<HTMLElement>(FOCUSABLE));
    (first ?? el).focus();
  };
  // Esc is taken here, in the bubbling phase, rather than by Radix's document listener: a control
  // inside that handles Esc itself (and stops it) keeps it, and nothing behind the dialog sees it.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    e.preventDefault();
    onClose();
  };
  const keep = (e: Event) => e.preventDefault();
  return (
    <RadixDialog.Root open modal={false} onOpenChange={(open) => (open ? undefined : onClose())}>
      <div className="ui-dialog-overlay">
        <FocusScope asChild trapped loop onUnmountAutoFocus={keep}>
          <RadixDialog.Content
            ref={ref}
            aria-modal="true"
            aria-describedby={describedBy}
            className={`ui-dialog ${className ?? ''}`}
            onOpenAutoFocus={focusIn}
            onCloseAutoFocus={keep}
            onEscapeKeyDown={keep}
            onPointerDownOutside={keep}
            onFocusOutside={keep}
            onKeyDown={onKeyDown}
          >
            <RadixDialog.Title className="ui-dialog-title">{title}</RadixDialog.Title>
            {children}
          </RadixDialog.Content>
        </FocusScope>
      </div>
    </RadixDialog.Root>
  );
}
