/**
 * The inbox's state: the conversation list (filter, pages), the open thread, a draft per
 * conversation (text and attached files with their progress), the send state, and the quick
 * replies. One store per screen, created with the API it talks to (the real `window.stockroom`, or
 * a fake in the component tests). Every call's error is kept as data and shown in words.
 * Over 400 lines on purpose: the list, the thread and the drafts answer the same events (a new
 * message, a pull, a session change) and read each other's state; one store keeps that in one place.
 */
import { createStore } from 'zustand/vanilla';
import type { StockroomApi } from '../../common/contract/api.js';
import type { ApiError, ConversationView, QuickReplyView, StagedFileView, ThreadView } from '../../common/contract/contract.js';
import { ERROR_CODES } from '../../common/errors.js';
import { errorText, errorWords } from '../i18n/errors.js';
import { t } from '../i18n/index.js';
import { type Refusal, admitFiles, flaggedFile } from './files.js';

export type Filter = 'all' | 'unread' | 'to_reply' | 'blocked' | 'with_attachments' | 'failed';
export type Status = 'idle' | 'loading' | 'ready' | 'error';

export const PAGE = 50;
export const THREAD_PAGE = 50;
/** A draft's text is kept by the core this long after the last keystroke (issue 15 §2: drafts survive a restart). */
export const DRAFT_SAVE_MS = 400;
/** How often an open thread is re-read while a message waits (queued, or under moderation). */
export const WATCH_MS = 1500;

export interface DraftFile {
  key: string;
  name: string;
  size: number;
  type: string;
  state: 'reading' | 'staging' | 'ready' | 'failed';
  /** 0..1: bytes read, then staged. */
  progress: number;
  fileId: string | null;
  error: string | null;
  /** The marketplace will flag it as a potential threat (issue 27: said on drop, not only after sending). */
  flagged: boolean;
}

export interface Draft {
  text: string;
  files: DraftFile[];
  /** Files refused at the last drop, with the reason. */
  refused: Refusal[];
}

/** `queued` names its outbox entry: the composer then follows it (sending, or refused by the marketplace: issue 27). */
export type SendState =
  { status: 'idle' } | { status: 'sending' } | { status: 'sent' } | { status: 'queued'; entryId: number } | { status: 'failed'; error: ApiError };

export interface InboxState {
  filter: Filter;
  /** Buyer, product, order id or words of a message (issue 15 §2); '' lists everything. */
  search: string;
  list: { status: Status; total: number; conversations: ConversationView[]; error: ApiError | null; loadingMore: boolean };
  selected: ConversationView | null;
  thread: { status: Status; packId: number | null; view: ThreadView | null; error: ApiError | null; loadingOlder: boolean };
  drafts: Record<number, Draft>;
  sending: Record<number, SendState>;
  quick: { status: Status; replies: QuickReplyView[]; error: ApiError | null };
  /** The marketplace is reachable and the app sends (the last sync status); null before the first one. */
  online: boolean | null;
  /** An action on a queued message or an attachment failed; `detail`: the core's message the text does not show (errorWords). */
  notice: { kind: 'error' | 'info'; text: string; detail?: string | undefined } | null;
}

export interface InboxActions {
  loadList(): Promise<void>;
  loadMore(): Promise<void>;
  setFilter(filter: Filter): Promise<void>;
  setSearch(search: string): Promise<void>;
  /** Reads the drafts the core kept (a restart, a reload) into the conversations that have none yet. */
  loadDrafts(): Promise<void>;
  /** Sends pending draft saves now (the screen goes away). */
  flushDrafts(): void;
  open(conversation: ConversationView): Promise<void>;
  /** Opens a conversation known only by its pack (a clicked notification): from the list, else read alone. */
  openPack(packId: number): Promise<void>;
  /** Re-reads the open thread (newest messages) without clearing the screen. */
  refreshThread(): Promise<void>;
  loadOlder(): Promise<void>;
  setText(packId: number, text: string): void;
  insertText(packId: number, text: string): void;
  addFiles(packId: number, files: readonly File[]): void;
  removeFile(packId: number, key: string): Promise<void>;
  dismissRefused(packId: number): void;
  send(packId: number): Promise<void>;
  retry(entryId: number): Promise<void>;
  discard(entryId: number): Promise<void>;
  loadQuickReplies(): Promise<void>;
  saveQuickReplies(replies: QuickReplyView[]): Promise<boolean>;
  setNotice(notice: InboxState['notice']): void;
  /** Starts the event subscriptions and the watch of a waiting message; returns the stop function. */
  start(): () => void;
}

export type InboxStore = ReturnType<typeof createInboxStore>;

const emptyDraft = (): Draft => ({ text: '', files: [], refused: [] });

let fileSeq = 0;

/** A file the core kept with a draft (a reload, a restart): staged already. */
const keptFile = (f: StagedFileView): DraftFile => ({
  key: `f${++fileSeq}`,
  name: f.name,
  size: f.size,
  type: f.type ?? '',
  state: 'ready',
  progress: 1,
  fileId: f.fileId,
  error: null,
  flagged: flaggedFile(f.name, f.type ?? ''),
});

/** Reads a file's bytes with progress (FileReader: available in every browser, Electron and jsdom). */
function readBytes(file: File, onProgress: (fraction: number) => void, signal: { aborted: boolean }): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (e) => {
      if (signal.aborted) reader.abort();
      else if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.onabort = () => reject(new Error('aborted'));
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(file);
  });
}

export function createInboxStore(api: StockroomApi) {
  const aborted = new Map<string, { aborted: boolean }>();
  let listSeq = 0;
  let threadSeq = 0;

  const store = createStore<InboxState & InboxActions>()((set, get) => {
    const draftOf = (packId: number) => get().drafts[packId] ?? emptyDraft();
    const setDraft = (packId: number, change: (d: Draft) => Draft) =>
      set((s) => ({ drafts: { ...s.drafts, [packId]: change(s.drafts[packId] ?? emptyDraft()) } }));
    const setFile = (packId: number, key: string, change: Partial<DraftFile>) =>
      setDraft(packId, (d) => ({ ...d, files: d.files.map((f) => (f.key === key ? { ...f, ...change } : f)) }));

    async function fetchList(offset: number) {
      const { filter, search } = get();
      return api.messages.conversations({ filter, limit: PAGE, offset, ...(search.trim() !== '' ? { search: search.trim() } : {}) });
    }

    // Drafts are saved in the core a moment after the last change, one timer per conversation.
    const draftTimers = new Map<number, ReturnType<typeof setTimeout>>();
    const saveDraftNow = (packId: number) => {
      const timer = draftTimers.get(packId);
      if (timer !== undefined) clearTimeout(timer);
      draftTimers.delete(packId);
      // Best effort: a draft that could not be kept is still on screen. Its staged files go with it (issue 27).
      const fileIds = draftOf(packId)
        .files.filter((f) => f.state === 'ready' && f.fileId !== null)
        .map((f) => f.fileId as string);
      void api.messages.saveDraft({ packId, text: draftOf(packId).text.slice(0, 10_000), ...(fileIds.length > 0 ? { fileIds } : {}) });
    };
    const scheduleDraftSave = (packId: number) => {
      const timer = draftTimers.get(packId);
      if (timer !== undefined) clearTimeout(timer);
      draftTimers.set(
        packId,
        setTimeout(() => saveDraftNow(packId), DRAFT_SAVE_MS),
      );
    };

    async function readThread(packId: number, limit: number) {
      return api.messages.thread({ packId, limit: Math.min(200, Math.max(THREAD_PAGE, limit)), offset: 0 });
    }

    async function stage(packId: number, file: File, entry: DraftFile) {
      const signal = { aborted: false };
      aborted.set(entry.key, signal);
      try {
        const bytes = await readBytes(file, (p) => setFile(packId, entry.key, { progress: p * 0.8 }), signal);
        if (signal.aborted) return;
        // Its first bytes may say executable where its name did not ("invoice.pdf" that is a program).
        setFile(packId, entry.key, { state: 'staging', progress: 0.8, flagged: entry.flagged || flaggedFile(file.name, file.type, bytes.subarray(0, 16)) });
        const r = await api.messages.stageFile({ name: file.name, ...(file.type ? { type: file.type } : {}), bytes });
        if (signal.aborted) {
          if (r.ok) void api.messages.discardFile({ fileId: r.value.fileId });
          return;
        }
        if (r.ok) {
          setFile(packId, entry.key, { state: 'ready', progress: 1, fileId: r.value.fileId });
          scheduleDraftSave(packId);
        } else setFile(packId, entry.key, { state: 'failed', error: errorText(r.error) });
      } catch (e) {
        if (!signal.aborted) setFile(packId, entry.key, { state: 'failed', error: e instanceof Error ? e.message : String(e) });
      } finally {
        aborted.delete(entry.key);
      }
    }

    return {
      filter: 'all',
      search: '',
      list: { status: 'idle', total: 0, conversations: [], error: null, loadingMore: false },
      selected: null,
      thread: { status: 'idle', packId: null, view: null, error: null, loadingOlder: false },
      drafts: {},
      sending: {},
      quick: { status: 'idle', replies: [], error: null },
      online: null,
      notice: null,

      async loadList() {
        const seq = ++listSeq;
        set((s) => ({ list: { ...s.list, status: s.list.status === 'ready' ? 'ready' : 'loading', error: null } }));
        const r = await fetchList(0);
        if (seq !== listSeq) return;
        if (r.ok) {
          const selected = get().selected;
          const fresh = selected ? r.value.conversations.find((c) => c.packId === selected.packId) : undefined;
          set({
            list: { status: 'ready', total: r.value.total, conversations: r.value.conversations, error: null, loadingMore: false },
            ...(fresh ? { selected: fresh } : {}),
          });
        } else set((s) => ({ list: { ...s.list, status: 'error', error: r.error, loadingMore: false } }));
      },

      async loadMore() {
        const { list } = get();
        if (list.loadingMore || list.conversations.length >= list.total) return;
        const seq = listSeq;
        set({ list: { ...list, loadingMore: true } });
        const r = await fetchList(list.conversations.length);
        if (seq !== listSeq) return;
        if (r.ok) {
          const known = new Set(get().list.conversations.map((c) => c.packId));
          set((s) => ({
            list: {
              ...s.list,
              total: r.value.total,
              conversations: [...s.list.conversations, ...r.value.conversations.filter((c) => !known.has(c.packId))],
              loadingMore: false,
            },
          }));
        } else set((s) => ({ list: { ...s.list, loadingMore: false }, notice: { kind: 'error', ...errorWords(r.error) } }));
      },

      async setFilter(filter) {
        if (filter === get().filter) return;
        set((s) => ({ filter, list: { ...s.list, status: 'loading', conversations: [], total: 0 } }));
        await get().loadList();
      },

      async setSearch(search) {
        if (search === get().search) return;
        set((s) => ({ search, list: { ...s.list, status: 'loading', conversations: [], total: 0 } }));
        await get().loadList();
      },

      async loadDrafts() {
        const r = await api.messages.drafts();
        if (!r.ok) return;
        set((s) => {
          const drafts = { ...s.drafts };
          for (const d of r.value) {
            const have = drafts[d.packId] ?? emptyDraft();
            // What was typed or attached since the screen opened wins over what the core kept.
            drafts[d.packId] = {
              ...have,
              text: have.text === '' ? d.text : have.text,
              files: have.files.length > 0 ? have.files : (d.files ?? []).map(keptFile),
            };
          }
          return { drafts };
        });
      },

      flushDrafts() {
        for (const packId of [...draftTimers.keys()]) saveDraftNow(packId);
      },

      async open(conversation) {
        const seq = ++threadSeq;
        set({ selected: conversation, thread: { status: 'loading', packId: conversation.packId, view: null, error: null, loadingOlder: false } });
        const r = await readThread(conversation.packId, THREAD_PAGE);
        if (seq !== threadSeq) return;
        if (r.ok) set({ thread: { status: 'ready', packId: conversation.packId, view: r.value, error: null, loadingOlder: false } });
        else set({ thread: { status: 'error', packId: conversation.packId, view: null, error: r.error, loadingOlder: false } });
        // Reading marked the buyer's messages read: the counts in the list change.
        if (r.ok && conversation.unread > 0) void get().loadList();
      },

      async openPack(packId) {
        const known = get().list.conversations.find((c) => c.packId === packId);
        if (known) return get().open(known);
        const r = await api.messages.conversations({ packId, limit: 1 });
        if (!r.ok) set({ notice: { kind: 'error', ...errorWords(r.error) } });
        else if (r.value.conversations[0]) await get().open(r.value.conversations[0]);
      },

      async refreshThread() {
        const { thread } = get();
        if (thread.packId === null) return;
        const packId = thread.packId;
        const seq = ++threadSeq;
        const r = await readThread(packId, thread.view?.messages.length ?? THREAD_PAGE);
        if (seq !== threadSeq || get().thread.packId !== packId) return;
        if (r.ok) set((s) => ({ thread: { ...s.thread, status: 'ready', view: r.value, error: null } }));
        else if (get().thread.status !== 'ready') set((s) => ({ thread: { ...s.thread, status: 'error', error: r.error } }));
      },

      async loadOlder() {
        const { thread } = get();
        if (!thread.view || thread.packId === null || thread.loadingOlder) return;
        const packId = thread.packId;
        const have = thread.view.messages.length;
        set({ thread: { ...thread, loadingOlder: true } });
        const r = await api.messages.thread({ packId, limit: THREAD_PAGE, offset: have });
        if (get().thread.packId !== packId) return;
        if (r.ok) {
          set((s) => {
            const view = s.thread.view;
            if (!view) return s;
            const known = new Set(view.messages.map((m) => m.id));
            return {
              thread: {
                ...s.thread,
                loadingOlder: false,
                view: { ...view, paging: r.value.paging, messages: [...view.messages, ...r.value.messages.filter((m) => !known.has(m.id))] },
              },
            };
          });
        } else set((s) => ({ thread: { ...s.thread, loadingOlder: false }, notice: { kind: 'error', ...errorWords(r.error) } }));
      },

      setText(packId, text) {
        setDraft(packId, (d) => ({ ...d, text }));
        scheduleDraftSave(packId);
        const sending = get().sending[packId];
        if (sending && sending.status !== 'sending' && sending.status !== 'idle') set((s) => ({ sending: { ...s.sending, [packId]: { status: 'idle' } } }));
      },

      insertText(packId, text) {
        setDraft(packId, (d) => ({ ...d, text: d.text.trim() === '' ? text : `${d.text.replace(/\s+$/, '')}\n${text}` }));
        scheduleDraftSave(packId);
      },

      addFiles(packId, files) {
        const { accepted, refused } = admitFiles(draftOf(packId).files, files);
        const entries = accepted.map((f): [File, DraftFile] => [
          f,
          {
            key: `f${++fileSeq}`,
            name: f.name,
            size: f.size,
            type: f.type,
            state: 'reading',
            progress: 0,
            fileId: null,
            error: null,
            flagged: flaggedFile(f.name, f.type),
          },
        ]);
        setDraft(packId, (d) => ({ ...d, files: [...d.files, ...entries.map(([, e]) => e)], refused }));
        for (const [file, entry] of entries) void stage(packId, file, entry);
      },

      async removeFile(packId, key) {
        const f = draftOf(packId).files.find((x) => x.key === key);
        if (!f) return;
        const signal = aborted.get(key);
        if (signal) signal.aborted = true;
        setDraft(packId, (d) => ({ ...d, files: d.files.filter((x) => x.key !== key) }));
        scheduleDraftSave(packId);
        if (f.fileId) {
          const r = await api.messages.discardFile({ fileId: f.fileId });
          if (!r.ok && r.error.code !== ERROR_CODES.fileNotFound) set({ notice: { kind: 'error', ...errorWords(r.error) } });
        }
      },

      dismissRefused(packId) {
        setDraft(packId, (d) => ({ ...d, refused: [] }));
      },

      async send(packId) {
        const draft = draftOf(packId);
        if (get().sending[packId]?.status === 'sending') return;
        if (draft.files.some((f) => f.state === 'reading' || f.state === 'staging')) return;
        const fileIds = draft.files.filter((f) => f.state === 'ready' && f.fileId).map((f) => f.fileId as string);
        set((s) => ({ sending: { ...s.sending, [packId]: { status: 'sending' } } }));
        const r = await api.messages.send({ packId, text: draft.text, ...(fileIds.length > 0 ? { fileIds } : {}) });
        if (r.ok) {
          setDraft(packId, () => emptyDraft());
          saveDraftNow(packId);
          const state: SendState = r.value.status === 'sent' ? { status: 'sent' } : { status: 'queued', entryId: r.value.entryId };
          set((s) => ({ sending: { ...s.sending, [packId]: state } }));
          if (get().thread.packId === packId) await get().refreshThread();
          void get().loadList();
        } else {
          set((s) => ({ sending: { ...s.sending, [packId]: { status: 'failed', error: r.error } } }));
        }
      },

      async retry(entryId) {
        const r = await api.outbox.retry({ entryId });
        if (!r.ok) set({ notice: { kind: 'error', ...errorWords(r.error) } });
        await get().refreshThread();
      },

      async discard(entryId) {
        const r = await api.outbox.discard({ entryId });
        if (!r.ok) set({ notice: { kind: 'error', ...errorWords(r.error) } });
        // A message of unknown outcome is looked for on the marketplace first (issue 24): dropped only if the buyer never got it.
        else if (r.value.how === 'checking') set({ notice: { kind: 'info', text: t('thread.discardChecking') } });
        await get().refreshThread();
        void get().loadList();
      },

      async loadQuickReplies() {
        set((s) => ({ quick: { ...s.quick, status: s.quick.status === 'ready' ? 'ready' : 'loading', error: null } }));
        const r = await api.messages.quickReplies();
        if (r.ok) set({ quick: { status: 'ready', replies: r.value, error: null } });
        else set((s) => ({ quick: { ...s.quick, status: 'error', error: r.error } }));
      },

      async saveQuickReplies(replies) {
        const r = await api.messages.saveQuickReplies({ replies });
        if (r.ok) {
          set({ quick: { status: 'ready', replies: r.value, error: null } });
          return true;
        }
        set((s) => ({ quick: { ...s.quick, error: r.error } }));
        return false;
      },

      setNotice(notice) {
        set({ notice });
      },

      start() {
        let timer: ReturnType<typeof setTimeout> | undefined;
        let stopped = false;
        let lastOutbox: string | null = null;
        // Null at first: a status naming a pull the list may have been read before reloads it once.
        let lastPullAt: number | null = null;
        const waiting = () => {
          const v = get().thread.view;
          if (!v) return false;
          return v.queued.length > 0 || v.messages.some((m) => m.message_moderation.status === 'pending');
        };
        const tick = () => {
          timer = undefined;
          if (stopped) return;
          if (waiting()) void get().refreshThread().finally(schedule);
          else schedule();
        };
        const schedule = () => {
          if (!stopped && timer === undefined) timer = setTimeout(tick, WATCH_MS);
        };
        schedule();
        void get().loadDrafts();
        void api.sync.status().then((r) => {
          if (r.ok && get().online === null) set({ online: r.value.mode === 'online' && r.value.online });
        });
        // A reload or a closed window: send what the debounce still holds (best effort).
        const onHide = () => get().flushDrafts();
        window.addEventListener('pagehide', onHide);
        const offs = [
          api.subscribe('messages.new', (e) => {
            void get().loadList();
            const open = get().thread.packId;
            if (open !== null && e.messages.some((m) => m.packId === open)) void get().refreshThread();
          }),
          api.subscribe('sync.status', (e) => {
            const online = e.status.mode === 'online' && e.status.online;
            if (online !== get().online) set({ online });
            if (waiting()) void get().refreshThread();
            // The outbox moved (a reply sent, failed, retried): the list's "queued" badges change.
            // Or a pull ended: the replica's conversations changed, and the first pull of an account
            // (its whole history) announces no message as new.
            const outbox = `${e.status.pending}|${e.status.inFlight}|${e.status.failed}|${e.status.unknown}|${e.status.conflicts}`;
            const pulled = e.status.lastPullAt !== lastPullAt;
            if ((lastOutbox !== null && outbox !== lastOutbox) || pulled) void get().loadList();
            lastOutbox = outbox;
            lastPullAt = e.status.lastPullAt;
          }),
          api.subscribe('session.changed', () => {
            void get().loadList();
          }),
        ];
        return () => {
          get().flushDrafts();
          window.removeEventListener('pagehide', onHide);
          stopped = true;
          if (timer !== undefined) clearTimeout(timer);
          for (const off of offs) off();
        };
      },
    };
  });
  return store;
}
