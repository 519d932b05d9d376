/**
 * Toasts (Radix Toast): transient confirmations of an action that is done, e.g. an export written
 * or a view saved. Announced politely (type "background"), dismissible (Close, Esc, a swipe; they
 * go by themselves after a while, paused while hovered or focused), and never take focus (F8
 * reaches them). Not for what a scanner user listens to: the stock screen's notice line stays the
 * live region of scans and edits.
 *
 * `toast(text)` may be called from anywhere (a store's action); `<Toaster>` shows them, once, in
 * the frame.
 */
import * as RadixToast from '@radix-ui/react-toast';
import { useEffect } from 'react';
import { flushSync } from 'react-dom';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { Icon } from './Icon.js';
import './toast.css';

interface ToastItem {
  id: number;
  text: string;
}

/** At most this many at once: the oldest goes first. */
const MAX = 3;
const DURATION_MS = 8000;

export const toasts = createStore<{ items: ToastItem[] }>(() => ({ items: [] }));
let seq = 0;

/** Shows a transient confirmation, in words already in the page's language. */
export function toast(text: string): void {
  toasts.setState((s) => ({ items: [...s.items.slice(1 - MAX), { id: ++seq, text }] }));
}

const remove = (id: number) => toasts.setState((s) => ({ items: s.items.filter((t) => t.id !== id) }));

export interface ToastWords {
  /** Said before each toast's text ("Notification"). */
  label: string;
  /** The region's name, with {hotkey} (F8) in it. */
  region: string;
  dismiss: string;
}

export function Toaster({ words }: { words: ToastWords }) {
  const items = useStore(toasts, (s) => s.items);
  const showing = items.length > 0;
  useEffect(() => {
    if (!showing) return;
    // Each toast is a Radix layer, so the newest would take Esc from a panel or dialog opened
    // before it. Esc outside them dismisses them first, synchronously in the window's capture
    // phase, and goes on to what it was meant for.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || (e.target instanceof Element && e.target.closest('.ui-toast'))) return;
      flushSync(() => toasts.setState({ items: [] }));
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [showing]);
  return (
    <RadixToast.Provider label={words.label} duration={DURATION_MS} swipeDirection="right">
      {items.map((t) => (
        <RadixToast.Root key={t.id} type="background" className="ui-toast" defaultOpen onOpenChange={(open) => (open ? undefined : remove(t.id))}>
          <Icon name="check" />
          <RadixToast.Description className="ui-toast-text">{t.text}</RadixToast.Description>
          <RadixToast.Close className="ui-toast-close" aria-label={words.dismiss}>
            <Icon name="close" />
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="ui-toast-viewport" label={words.region} />
    </RadixToast.Provider>
  );
}
