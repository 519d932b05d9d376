import { useState } from 'react';
import type { ConversationOrderView, ConversationView } from '../../common/contract/contract.js';
import { type I18n, useI18n } from '../i18n/index.js';
import { buyerName } from './words.js';
import './order-panel.css';

/**
 * The buyer as a person reads them: "First Last (nickname)", or "First Last" alone where space is
 * short (`short`, the list); the nickname when the names are unknown.
 */
export function buyerFullName(i: I18n, buyer: ConversationView['buyer'], short = false): string {
  const full = [buyer.firstName, buyer.lastName].filter((s): s is string => typeof s === 'string' && s.trim() !== '').join(' ');
  if (full === '') return buyerName(i, buyer);
  return buyer.nickname && !short ? i.t('order.buyerName', { name: full, nickname: buyer.nickname }) : full;
}

/** An amount in its currency (a plain number when the order has no currency). */
export function money(i: I18n, amount: number, currency: string | null): string {
  if (currency === null || !/^[A-Z]{3}$/.test(currency)) return i.formatNumber(amount, { maximumFractionDigits: 2 });
  return i.formatNumber(amount, { style: 'currency', currency });
}

function shippingText(i: I18n, s: ConversationOrderView['shipping']): string {
  const how = i.code('order.logistic', s.logisticType);
  const state = s.delivered ? i.t('order.delivered') : i.t('order.notDelivered');
  return s.id === null ? `${how} · ${i.t('order.noShipment')}` : `${how} · ${state}`;
}

/** The item's picture; the product's initial when it has none or it does not load. */
function Picture({ url, title }: { url: string | null; title: string }) {
  const { t } = useI18n();
  const [failed, setFailed] = useState<string | null>(null);
  if (!url || failed === url) {
    return (
      <span className="order-picture none" aria-hidden="true">
        {Array.from(title.trim())[0]?.toLocaleUpperCase() ?? '?'}
      </span>
    );
  }
  return <img className="order-picture" src={url} alt={t('order.picture', { title })} referrerPolicy="no-referrer" onError={() => setFailed(url)} />;
}

function OrderCard({ order: o }: { order: ConversationOrderView }) {
  const i = useI18n();
  const { t } = i;
  return (
    <section className="order-card" aria-label={t('order.number', { id: String(o.id) })} data-order={o.id}>
      {o.items.length === 0 ? (
        <p className="muted">{t('order.noItems')}</p>
      ) : (
        <ul className="order-items">
          {o.items.map((l) => (
            <li key={l.itemId} className="order-item">
              <Picture url={l.picture} title={l.title} />
              <span className="order-item-text">
                <strong className="order-product">{l.title}</strong>
                <span className="order-quantity">
                  {t('order.quantityValue', { count: l.quantity })} × {money(i, l.unitPrice, l.currencyId)}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
      <dl className="order-facts">
        <dt>{t('order.idLabel')}</dt>
        <dd>{String(o.id)}</dd>
        <dt>{t('order.orderStatus')}</dt>
        <dd className={`order-status ${o.status}`}>
          <span aria-hidden="true">{o.status === 'paid' ? '✓ ' : '⊘ '}</span>
          {i.code('order.state', o.status)}
        </dd>
        <dt>{t('order.shipping')}</dt>
        <dd className="order-shipping">{shippingText(i, o.shipping)}</dd>
        <dt>{t('order.total')}</dt>
        <dd>{money(i, o.totalAmount, o.currencyId)}</dd>
        <dt>{t('order.date')}</dt>
        <dd>
          <time dateTime={o.dateCreated}>{i.formatDate(o.dateCreated)}</time>
        </dd>
      </dl>
    </section>
  );
}

/** The side panel's orders: product (with picture), quantity, status, shipping, amount and date of each. */
export function OrderPanel({ conversation }: { conversation: ConversationView }) {
  const orders = conversation.orders ?? [];
  if (orders.length === 0) return null;
  return (
    <div className="order-panel">
      {orders.map((o) => (
        <OrderCard key={o.id} order={o} />
      ))}
    </div>
  );
}
