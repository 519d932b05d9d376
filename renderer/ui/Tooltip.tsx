/**
 * A tooltip (Radix Tooltip) naming an icon-only button or showing a button's shortcut. It never
 * takes focus, and keys never open it: a pointer resting on the button opens it after a delay,
 * focus moved there by Tab at once; focus given by code (a dialog handing focus back after Esc)
 * does not (:focus-visible would: Chromium counts that as keyboard focus). Any key closes it
 * before the key goes on, so a scanner's burst never shows one and Esc still reaches the panel or
 * dialog behind it (Radix would take Esc for the tooltip's own layer).
 */
import * as RadixTooltip from '@radix-ui/react-tooltip';
import { type FocusEvent, type ReactElement, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { shortcutText } from './shortcut.js';
import './tooltip.css';

export function Tooltip({ label, shortcut, children }: { label: string; shortcut?: string; children: ReactElement }) {
  const [open, setOpen] = useState(false);
  // Whether the last key was Tab (and no pointer since): the only focus that opens the tooltip.
  const tabbed = useRef(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      tabbed.current = e.key === 'Tab';
    };
    const onPointer = () => {
      tabbed.current = false;
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('pointerdown', onPointer, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('pointerdown', onPointer, true);
    };
  }, []);
  useEffect(() => {
    if (!open) return;
    // Synchronously, in the window's capture phase: the tooltip's layer is gone before Radix's
    // document listeners see the key.
    const onKey = () => flushSync(() => setOpen(false));
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open]);
  const onFocus = (e: FocusEvent<HTMLElement>) => {
    if (!tabbed.current) e.preventDefault();
    tabbed.current = false;
  };
  return (
    <RadixTooltip.Provider delayDuration={600} skipDelayDuration={300}>
      <RadixTooltip.Root open={open} onOpenChange={setOpen}>
        <RadixTooltip.Trigger asChild onFocus={onFocus}>
          {children}
        </RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content className="ui-tooltip" side="bottom" sideOffset={6} collisionPadding={8}>
            {label}
            {shortcut ? <kbd className="ui-tooltip-shortcut">{shortcutText(shortcut)}</kbd> : null}
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
