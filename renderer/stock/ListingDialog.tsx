/**
 * A new listing with stock per store (POST /items/multiwarehouse through the core): item fields,
 * then the stores from the store search with a quantity each. The marketplace's errors (SPEC 7.1)
 * are shown beside the field they are about: the stores list, one store's row, or a field.
 */
import { type FormEvent, useEffect, useState } from 'react';
import type { ApiError, Language, StoreView } from '../../common/contract/contract.js';
import { errorDetail, errorText } from '../i18n/errors.js';
import { Dialog } from '../ui/Dialog.js';
import { useStockStore } from './store.js';
import { type StockKey, useStockWords } from './words.js';
import { Button } from '../ui/Button.js';

type Field = 'title' | 'category_id' | 'price' | 'currency_id' | 'listing_type_id' | 'stores' | 'general';
export type FieldErrors = Partial<Record<Field, string>> & { store?: Record<string, string> };

const LISTING_TYPES = ['gold_special', 'gold_pro', 'free'];

/**
 * Where a core error belongs in the form, by the core's message (it names the field); what is shown
 * there is the error in the person's words (renderer/i18n/errors.ts: in English, that message).
 */
export function placeError(e: ApiError, stockLocations: { store_id: string }[], language?: Language): FieldErrors {
  const m = e.message;
  const text = errorText(e, language);
  const storeMatch = /^Store (?:does not belong to seller|not found): (.+)$/.exec(m);
  if (storeMatch) return { store: { [storeMatch[1]!.trim()]: text } };
  if (/\[stock_locations\]/.test(m)) return { stores: text };
  if (m.startsWith('Store ')) return { stores: text };
  const path = /^([a-z_]+)(?:\.(\d+)\.[a-z_]+)?: /.exec(m);
  if (path) {
    const [, field, index] = path;
    if (field === 'stock_locations' && index !== undefined) {
      const id = stockLocations[Number(index)]?.store_id;
      if (id) return { store: { [id]: text } };
      return { stores: text };
    }
    if (field === 'title' || field === 'category_id' || field === 'price' || field === 'currency_id' || field === 'listing_type_id') return { [field]: text };
  }
  return { general: text };
}

export function ListingDialog() {
  const store = useStockStore();
  const w = useStockWords();
  const [stores, setStores] = useState<StoreView[] | null>(null);
  const [storesError, setStoresError] = useState<ApiError | null>(null);
  const [title, setTitle] = useState('');
  const [category, setCategory] = useState('');
  const [price, setPrice] = useState('');
  const [currency, setCurrency] = useState('ARS');
  const [listingType, setListingType] = useState('gold_special');
  const [picked, setPicked] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void store
      .getState()
      .api.stock.stores()
      .then((r) => {
        if (!live) return;
        if (r.ok) setStores(r.value);
        else setStoresError(r.error);
      });
    return () => {
      live = false;
    };
  }, [store]);

  const close = () => store.getState().setDialog(null);
  const isStockLocation = (s: StoreView) => s.tags.includes('stock_location');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: FieldErrors = {};
    const need = (field: Field, ok: boolean, key: StockKey) => {
      if (!ok) errs[field] = w.t(key);
    };
    need('title', title.trim() !== '', 'listing.err.title');
    need('category_id', /^[A-Za-z0-9_-]{1,50}$/.test(category.trim()), 'listing.err.category');
    const priceValue = Number(price.replace(',', '.'));
    need('price', price.trim() !== '' && Number.isFinite(priceValue) && priceValue > 0, 'listing.err.price');
    const chosen = Object.entries(picked);
    if (chosen.length === 0) errs.stores = w.t('listing.err.stores');
    for (const [id, q] of chosen) {
      if (!/^\d+$/.test(q.trim()) || Number(q) > 1_000_000) (errs.store ??= {})[id] = w.t('listing.err.quantity');
    }
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    const stock_locations = chosen.map(([id, q]) => ({
      store_id: id,
      network_node_id: stores?.find((s) => s.id === id)?.network_node_id ?? '',
      quantity: Number(q),
    }));
    setBusy(true);
    const r = await store.getState().api.stock.createListing({
      title: title.trim(),
      category_id: category.trim(),
      price: priceValue,
      currency_id: currency.trim(),
      listing_type_id: listingType,
      channels: ['marketplace'],
      stock_locations: stock_locations.map((l) => (l.network_node_id ? l : { store_id: l.store_id, quantity: l.quantity })),
    });
    setBusy(false);
    if (!r.ok) {
      setErrors(placeError(r.error, stock_locations, w.language));
      return;
    }
    store.getState().say('listing.created', { id: r.value.id, userProductId: r.value.user_product_id });
    close();
  };

  const fieldError = (field: Field) =>
    errors[field] ? (
      <span className="field-error" id={`listing-${field}-error`} role="alert">
        ! {errors[field]}
      </span>
    ) : null;
  const described = (field: Field) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': `listing-${field}-error` } : {});

  return (
    <Dialog title={w.t('listing.title')} onClose={close} className="listing-dialog">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <div className="form-row">
          <label htmlFor="listing-title">{w.t('listing.field.title')}</label>
          <input id="listing-title" data-autofocus value={title} maxLength={500} onChange={(e) => setTitle(e.target.value)} {...described('title')} />
          {fieldError('title')}
        </div>
        <div className="form-grid">
          <div className="form-row">
            <label htmlFor="listing-category">{w.t('listing.field.category')}</label>
            <input id="listing-category" value={category} placeholder="MLA1902" onChange={(e) => setCategory(e.target.value)} {...described('category_id')} />
            {fieldError('category_id')}
          </div>
          <div className="form-row">
            <label htmlFor="listing-price">{w.t('listing.field.price')}</label>
            <input id="listing-price" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} {...described('price')} />
            {fieldError('price')}
          </div>
          <div className="form-row">
            <label htmlFor="listing-currency">{w.t('listing.field.currency')}</label>
            <input
              id="listing-currency"
              value={currency}
              maxLength={10}
              onChange={(e) => setCurrency(e.target.value.toUpperCase())}
              {...described('currency_id')}
            />
            {fieldError('currency_id')}
          </div>
          <div className="form-row">
            <label htmlFor="listing-type">{w.t('listing.field.listingType')}</label>
            <select id="listing-type" value={listingType} onChange={(e) => setListingType(e.target.value)} {...described('listing_type_id')}>
              {LISTING_TYPES.map((t) => (
                <option key={t} value={t}>
                  {w.code('stock.listing.type', t)}
                </option>
              ))}
            </select>
            {fieldError('listing_type_id')}
          </div>
        </div>
        <fieldset className="stores-field" aria-describedby={errors.stores ? 'listing-stores-error' : 'listing-stores-help'}>
          <legend>{w.t('listing.field.stores')}</legend>
          <p id="listing-stores-help" className="help">
            {w.t('listing.storesHelp')}
          </p>
          {storesError ? (
            <p role="alert" title={errorDetail(storesError, w.language)}>
              {w.t('error', { message: errorText(storesError, w.language) })}
            </p>
          ) : stores === null ? (
            <p>{w.t('listing.storesLoading')}</p>
          ) : stores.filter(isStockLocation).length === 0 ? (
            <p>{w.t('listing.storesNone')}</p>
          ) : (
            <ul className="store-picks">
              {stores.map((s) => {
                const on = picked[s.id] !== undefined;
                const usable = isStockLocation(s);
                const err = errors.store?.[s.id];
                return (
                  <li key={s.id} data-store={s.id}>
                    <label>
                      <input
                        type="checkbox"
                        checked={on}
                        disabled={!usable}
                        onChange={(e) =>
                          setPicked((p) => {
                            const next = { ...p };
                            if (e.target.checked) next[s.id] = next[s.id] ?? '0';
                            else delete next[s.id];
                            return next;
                          })
                        }
                      />{' '}
                      {s.description} <span className="muted">({s.id})</span>
                      {!usable ? <span className="muted"> — {w.t('listing.notStockLocation')}</span> : null}
                    </label>
                    {on ? (
                      <input
                        className="quantity"
                        inputMode="numeric"
                        aria-label={w.t('listing.quantity', { store: s.description })}
                        value={picked[s.id]}
                        aria-invalid={err ? true : undefined}
                        aria-describedby={err ? `listing-store-${s.id}-error` : undefined}
                        onChange={(e) => setPicked((p) => ({ ...p, [s.id]: e.target.value }))}
                      />
                    ) : null}
                    {err ? (
                      <span className="field-error" id={`listing-store-${s.id}-error`} role="alert">
                        ! {err}
                      </span>
                    ) : null}
                  </li>
                );
              })}
              {Object.entries(errors.store ?? {})
                .filter(([id]) => !stores.some((s) => s.id === id))
                .map(([id, m]) => (
                  <li key={id} className="field-error" role="alert">
                    ! {m}
                  </li>
                ))}
            </ul>
          )}
          {fieldError('stores')}
        </fieldset>
        {errors.general ? (
          <p className="form-error" role="alert">
            ! {w.t('listing.err.general', { message: errors.general })}
          </p>
        ) : null}
        <div className="ui-dialog-actions">
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? w.t('listing.creating') : w.t('listing.create')}
          </Button>
          <Button type="button" onClick={close}>
            {w.t('csv.cancel')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
