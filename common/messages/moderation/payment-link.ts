/**
 * LINK_PAYMENT: links to a payment provider and every other way of being paid outside the
 * platform's checkout (where the buyer loses the purchase protection).
 *
 * Detects
 * - payment links: mpago.la, mpago.li, mercadopago.com(.ar/.br/...)/<path>, link.mercadopago...,
 *   paypal.me, paypal.com/paypalme, pag.ae, pagseguro.uol.com.br/<path>, picpay.me,
 *   nubank.com.br/<path>;
 * - an offered payment link: "te mando el link de pago", "segue o link de pagamento",
 *   "I'll send you a payment link", "pagá con este link", "paga pelo link";
 * - Pix keys and Pix requests: "chave pix", "pix: <a key with a digit or @>", "meu pix", "faz um pix", "manda no pix",
 *   "paga via pix";
 * - PayPal requests: "mi paypal", "pay me on PayPal", "manda por paypal";
 * - payment outside the platform: "transferime", "haceme una transferencia", "depositame",
 *   "pagame por fuera", "por fuera de Mercado Libre", "me transfere", "faz uma transferência",
 *   "fora do Mercado Livre", "pay me directly", "bank transfer", "Zelle", "Venmo";
 * - bank data: a CBU/CVU (22 digits: after "CBU"/"CVU", or with valid check digits), a
 *   transfer alias ("alias: tienda.ropa.mp"), "datos bancarios", "dados bancários", "bank details".
 *
 * False positives avoided
 * - the platform's own payment talk: "el pago por Mercado Pago ya se acreditó", "o pagamento via
 *   Pix foi aprovado", "la transferencia de tu reembolso" (no imperative or offer);
 * - a rule stated with a negation in the same clause: "No aceptamos pagos por fuera de Mercado
 *   Libre", "nunca te vamos a pedir que pagues por fuera", "não aceitamos transferência";
 * - "alias" without a dotted alias ("el alias de tu usuario"), words containing "pix" ("pixel").
 */
import { isValidCbu } from './identifiers.js';
import { URL_REST, alternation, before, patternRule, type Rule } from './rule.js';

const REASON = 'LINK_PAYMENT' as const;

/** A negation earlier in the same clause, at most five words before the match. */
const NEGATED =
  /\b(?:no|nao|nunca|jamas|jamais|never|not|don'?t|do not|we don'?t|won'?t|sin|sem|without|evita|evite|evitar|avoid)\b(?:\s+[^\s.,;:!?]+){0,5}\s*$/;
const notNegated = (m: RegExpExecArray, view: string) => {
  const clause =
    before(view, m.index, 60)
      .split(/[.,;:!?\n]/)
      .pop() ?? '';
  return !NEGATED.test(clause);
};

export const paymentProviderLinkRule = patternRule({
  id: 'payment.provider-link',
  reason: REASON,
  message: 'Looks like a link to pay through a payment provider: payments outside the checkout are rejected.',
  view: 'lower',
  pattern: new RegExp(
    String.raw`(?<![\w@.-])(?:https?:\/\/)?(?:www\.)?(?:` +
      [
        String.raw`(?:mpago\.la|mpago\.li|pag\.ae|picpay\.me|paypal\.me)(?![\w-]|\.[a-z])(?:\/${URL_REST})?`,
        String.raw`(?:[a-z0-9-]+\.)*mercadopago\.com(?:\.[a-z]{2})?\/[\w-]${URL_REST}`,
        String.raw`(?:[a-z0-9-]+\.)*(?:paypal\.com\/(?:paypalme|pay|invoice|donate)|pagseguro\.uol\.com\.br\/[\w-]|nubank\.com\.br\/[\w-])${URL_REST}`,
      ].join('|') +
      ')',
  ),
  // mpago, pag.ae, mercadopago, pagseguro; picpay, paypal; nubank.
  requires: /pa[gy]|nubank/,
});

const SENDING = [
  'te mando',
  'te paso',
  'te envio',
  'te comparto',
  'te genero',
  'te hago',
  'aca va',
  'aca tenes',
  'ahi va',
  'ahi tenes',
  'mando',
  'paso',
  'envio',
  'genero',
  'segue',
  'vou te mandar',
  'vou mandar',
  'vou te enviar',
  'vou enviar',
  'vou te passar',
  'te mandei',
  'te envio',
  'te passo',
  'mandei',
  'enviei',
  "i'll send",
  'i will send',
  "we'll send",
  'we will send',
  "here's",
  'here is',
  'sending',
  'sent you',
  'use',
  'usa',
  'toca',
  'clica',
  'click',
];
const PAYMENT_LINK = [
  'link de pago',
  'link para pagar',
  'link para el pago',
  'link de pagamento',
  'link para pagamento',
  'link pra pagar',
  'link para pagar',
  'payment link',
  'link to pay',
  'pay link',
  'checkout link',
];

export const paymentLinkOfferRule = patternRule({
  id: 'payment.link-offer',
  reason: REASON,
  message: 'Looks like an offer of a payment link: payments outside the checkout are rejected.',
  pattern: new RegExp(
    String.raw`\b(?:` +
      [
        String.raw`(?:${alternation(SENDING)})(?:\s+(?:you|te|lhe|el|la|un|una|o|a|um|uma|the|a|este|esse|this|nuevo|novo|new))*\s+(?:${alternation(PAYMENT_LINK)})`,
        String.raw`(?:paga|pagame|pague|pagar|pay|abona)\s+(?:me\s+)?(?:con|por|en|desde|pelo|no|via|with|through|using|on)(?:\s+(?:este|el|ese|esse|o|this|the|that))?\s+link`,
      ].join('|') +
      String.raw`)\b`,
  ),
  requires: /link/,
  accept: notNegated,
});

export const pixRule = patternRule({
  id: 'payment.pix',
  reason: REASON,
  message: 'Looks like a request to pay by Pix outside the checkout: such messages are rejected.',
  pattern: new RegExp(
    String.raw`\b(?:` +
      [
        String.raw`chave(?:\s+(?:do|de|da))?\s+pix`,
        String.raw`pix\s+key`,
        String.raw`pix\s*[:=](?=\s*\S*[\d@])`,
        String.raw`(?:meu|minha|nosso|mi|my)\s+pix`,
        String.raw`(?:faz|faca|fazer|faze|manda|mande|mandar|envia|envie|enviar|paga|pague|pagar|transfere|transfira|transferir|deposita|me\s+faz|me\s+manda|hace|haceme|mandame|pagame|send|pay)(?:\s+(?:me|um|o|no|via|pelo|por|com|direto|diretamente|el|un|por|me))*\s+pix`,
      ].join('|') +
      String.raw`)(?!\w)`,
  ),
  requires: /pix/,
  accept: notNegated,
});

export const paypalRule = patternRule({
  id: 'payment.paypal',
  reason: REASON,
  message: 'Looks like a request to pay by PayPal outside the checkout: such messages are rejected.',
  pattern:
    /\b(?:(?:mi|meu|minha|my|our|nuestro|nosso)\s+paypal|paypal\s*[:=]|(?:pay|send|transfer|pagame|paga|pague|manda|mandame|envia|envie|transferime|deposita)\b(?:\s+[^\s.,;:!?]+){0,3}\s+(?:por|via|on|with|through|pelo|no|en|al|a)\s+paypal)\b/,
  requires: /paypal/,
  accept: notNegated,
});

const OFF_PLATFORM = [
  // es
  String.raw`transferi(?:me|nos|le|lo|la)`,
  String.raw`transferime`,
  String.raw`(?:hace|haceme|hacenos|hagamos|haga|hacer)\s+(?:una|la)\s+transferencia`,
  String.raw`deposita(?:me|nos|le)`,
  String.raw`deposita\s+en\s+(?:mi|la|nuestra)\s+cuenta`,
  String.raw`(?:paga|pagame|paganos|pague|pagues|pagar|pago|abona|abonar|cobro|cobrar|te cobro|arreglamos|arreglemos|vendo|vender|compra|comprame|hacerlo|operar|operamos)(?:\s+[^\s.,;:!?]+){0,3}?\s+(?:por\s+fuera|afuera|por\s+afuera|directo\s+conmigo)`,
  String.raw`(?:por\s+)?fuera\s+de\s+(?:la\s+|el\s+)?(?:mercado\s*libre|ml|meli|mercado\s*pago|la\s+plataforma|plataforma|la\s+pagina|pagina|la\s+app|app|publicacion)`,
  // pt
  String.raw`(?:me|nos)\s+transfer(?:e|a)`,
  String.raw`transfer(?:e|a)\s+(?:pra|para)\s+(?:mim|nos|minha\s+conta)`,
  String.raw`(?:faz|faca|fazer|faze|me\s+faz|manda)\s+(?:uma|um|a|o)\s+(?:transferencia|ted|deposito)`,
  String.raw`deposit(?:a|e)\s+(?:na|em)\s+(?:minha|nossa)?\s*conta`,
  String.raw`(?:paga|pague|pagar|pagamento|compra|comprar|vender|vendo|negociar|negocia)(?:\s+[^\s.,;:!?]+){0,3}?\s+(?:por\s+fora|direto\s+comigo|diretamente\s+comigo|direto\s+pra\s+mim)`,
  String.raw`fora\s+do\s+(?:mercado\s*livre|ml|mercado\s*pago|site|app|aplicativo)|fora\s+da\s+plataforma`,
  // en
  String.raw`pay\s+(?:me|us)\s+(?:directly|direct|outside|off)`,
  String.raw`(?:outside|off)\s+(?:of\s+)?(?:the\s+)?(?:platform|marketplace|mercado\s*libre|mercado\s*livre|site|app)`,
  String.raw`bank\s+transfer|wire\s+(?:me|us|transfer|the\s+money)`,
  String.raw`(?:send|transfer)\s+(?:me|us)\s+the\s+money`,
  String.raw`zelle|venmo|cash\s*app|western\s+union|moneygram`,
];

export const offPlatformPaymentRule = patternRule({
  id: 'payment.off-platform',
  reason: REASON,
  message: 'Looks like a request to pay outside the platform (transfer, deposit): such messages are rejected.',
  pattern: new RegExp(String.raw`\b(?:${OFF_PLATFORM.join('|')})\b`),
  accept: notNegated,
});

export const cbuRule = patternRule({
  id: 'payment.cbu',
  reason: REASON,
  message: 'Looks like bank account data (CBU/CVU): payments outside the checkout are rejected.',
  pattern: /(?<kw>\b(?:cbu|cvu)\b[^\d\n]{0,15}?)?(?<![\d.,/-])(?<hit>\d(?:[\s-]?\d){21})(?![\s-]?\d)/,
  requires: /\d(?:[\s-]?\d){21}/,
  accept: (m) => m.groups?.['kw'] !== undefined || isValidCbu(m.groups?.['hit'] ?? ''),
});

export const bankAliasRule = patternRule({
  id: 'payment.bank-alias',
  reason: REASON,
  message: 'Looks like a bank transfer alias: payments outside the checkout are rejected.',
  pattern:
    /\balias(?:\s+(?:del?|de\s+mi|cbu|cvu|mp|de\s+mp|de\s+mercado\s*pago|bancario))?(?:\s+(?:es|:))?\s*[:=]?\s*(?<hit>[a-z0-9](?:[a-z0-9-]*\.[a-z0-9-]+){1,5})(?![\w.-]*[a-z0-9])/,
  requires: /alias/,
  accept: (m) => {
    const alias = m.groups?.['hit'] ?? '';
    return alias.length >= 6 && alias.length <= 20 && !/\.(?:com|net|org|ar|br)$/.test(alias);
  },
});

export const bankDataRule = patternRule({
  id: 'payment.bank-data',
  reason: REASON,
  message: 'Looks like an offer of bank account data: payments outside the checkout are rejected.',
  pattern:
    /\b(?:datos\s+bancarios|datos\s+(?:para|de)\s+(?:la\s+)?transferencia|dados\s+bancarios|dados\s+(?:para|da)\s+(?:a\s+)?transferencia|bank\s+(?:details|account\s+(?:details|number))|routing\s+number|(?:mi|nuestro|nuestra|te\s+paso\s+(?:el|mi)|pasame\s+(?:tu|el)|aca\s+(?:va|tenes)\s+(?:el|mi))\s+(?:cbu|cvu|alias|numero\s+de\s+cuenta|cuenta\s+bancaria)|(?:minha|nossa|meus)\s+(?:conta\s+bancaria|dados\s+bancarios)|agencia\s+e\s+conta)\b/,
  // A word of each alternative: bancarios, transferencia, bank, routing, cbu, cvu, alias, cuenta, conta.
  requires: /banc|transferencia|bank|routing|cbu|cvu|alias|cuenta|conta/,
  accept: notNegated,
});

export const paymentLinkRules: readonly Rule[] = [
  paymentProviderLinkRule,
  paymentLinkOfferRule,
  pixRule,
  paypalRule,
  offPlatformPaymentRule,
  cbuRule,
  bankAliasRule,
  bankDataRule,
];
