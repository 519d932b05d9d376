import { describe, expect, it } from 'vitest';
import { isValidCbu } from '../../../../common/messages/moderation/identifiers.js';
import { expectClean, expectNoFindingOf, expectRejected } from './helpers.js';

describe('LINK_PAYMENT: payment provider links', () => {
  it.each([
    ['Pagá acá: mpago.la/2xYz9', 'mpago.la/2xYz9'],
    ['https://mpago.la/1AbC', 'https://mpago.la/1AbC'],
    ['mpago.li/abc', 'mpago.li/abc'],
    ['https://www.mercadopago.com.ar/checkout/v1/redirect?pref_id=123', 'https://www.mercadopago.com.ar/checkout/v1/redirect?pref_id=123'],
    ['link.mercadopago.com.br/lojax', 'link.mercadopago.com.br/lojax'],
    ['paypal.me/johndoe/20', 'paypal.me/johndoe/20'],
    ['https://www.paypal.com/paypalme/johndoe', 'https://www.paypal.com/paypalme/johndoe'],
    ['pag.ae/7abc', 'pag.ae/7abc'],
    ['picpay.me/loja.x', 'picpay.me/loja.x'],
    ['nubank.com.br/pagar/abc', 'nubank.com.br/pagar/abc'],
  ])('%s', (text, match) => expectRejected(text, 'LINK_PAYMENT', 'payment.provider-link', match));
});

describe('LINK_PAYMENT: offers and requests', () => {
  it.each([
    ['Te mando el link de pago por acá', 'payment.link-offer', 'Te mando el link de pago'],
    ['te paso un link para pagar más barato', 'payment.link-offer', 'te paso un link para pagar'],
    ['Segue o link de pagamento', 'payment.link-offer', 'Segue o link de pagamento'],
    ["I'll send you a payment link", 'payment.link-offer', "I'll send you a payment link"],
    ['Pagá con este link y listo', 'payment.link-offer', 'Pagá con este link'],
    ['paga pelo link que te mandei', 'payment.link-offer', 'paga pelo link'],
    ['minha chave pix é o meu celular', 'payment.pix', 'chave pix'],
    ['Pix: loja@x', 'payment.pix', 'Pix:'],
    ['faz um pix que eu libero', 'payment.pix', 'faz um pix'],
    ['manda no pix', 'payment.pix', 'manda no pix'],
    ['me faz um pix de 50', 'payment.pix', 'me faz um pix'],
    ['paga via pix direto', 'payment.pix', 'paga via pix'],
    ['pay me on PayPal', 'payment.paypal', 'pay me on PayPal'],
    ['mi paypal es tienda', 'payment.paypal', 'mi paypal'],
    ['Transferime y te lo mando hoy', 'payment.off-platform', 'Transferime'],
    ['Haceme una transferencia', 'payment.off-platform', 'Haceme una transferencia'],
    ['depositame en la cuenta', 'payment.off-platform', 'depositame'],
    ['pagame por fuera y te hago precio', 'payment.off-platform', 'pagame por fuera'],
    ['Si querés lo arreglamos por fuera de Mercado Libre', 'payment.off-platform', 'arreglamos por fuera'],
    ['Cancelá la compra y te la vendo más barato por afuera', 'payment.off-platform', 'vendo más barato por afuera'],
    ['cancela a compra que te vendo mais barato por fora', 'payment.off-platform', 'vendo mais barato por fora'],
    ['me transfere que eu envio', 'payment.off-platform', 'me transfere'],
    ['Faz uma transferência pra mim', 'payment.off-platform', 'Faz uma transferência'],
    ['podemos negociar fora do Mercado Livre', 'payment.off-platform', 'fora do Mercado Livre'],
    ['You can pay me directly', 'payment.off-platform', 'pay me directly'],
    ['bank transfer is cheaper', 'payment.off-platform', 'bank transfer'],
    ['I accept Zelle', 'payment.off-platform', 'Zelle'],
  ])('%s', (text, rule, match) => expectRejected(text, 'LINK_PAYMENT', rule, match));
});

describe('LINK_PAYMENT: bank data', () => {
  it('validates CBU check digits', () => {
    expect(isValidCbu('2850590940090418135201')).toBe(true);
    expect(isValidCbu('2850590940090418135202')).toBe(false);
    expect(isValidCbu('0000000000000000000000')).toBe(false);
  });

  it.each([
    ['CBU 2850590940090418135201', 'payment.cbu', '2850590940090418135201'],
    ['2850590940090418135201', 'payment.cbu', '2850590940090418135201'],
    ['cvu: 0000003100012345678901', 'payment.cbu', '0000003100012345678901'],
    ['CBU 28505909 40090418135201', 'payment.cbu', '28505909 40090418135201'],
    ['alias: tienda.ropa.mp', 'payment.bank-alias', 'tienda.ropa.mp'],
    ['Mi alias es PERRO.GATO.CASA', 'payment.bank-alias', 'PERRO.GATO.CASA'],
    ['te paso mi CBU por acá', 'payment.bank-data', 'te paso mi CBU'],
    ['Te mando los datos bancarios', 'payment.bank-data', 'datos bancarios'],
    ['seguem meus dados bancários', 'payment.bank-data', 'meus dados bancários'],
    ['send me your bank details', 'payment.bank-data', 'bank details'],
  ])('%s', (text, rule, match) => expectRejected(text, 'LINK_PAYMENT', rule, match));
});

describe('LINK_PAYMENT: false positives avoided', () => {
  it.each([
    'El pago por Mercado Pago ya se acreditó',
    'O pagamento via Pix foi aprovado pelo Mercado Pago',
    'La transferencia de tu reembolso se acredita en 48 hs',
    'No aceptamos pagos por fuera de Mercado Libre',
    'Nunca te vamos a pedir que pagues por fuera de la plataforma',
    'Não aceitamos transferência, só pelo site',
    'We never ask you to pay outside the platform',
    'el alias de tu usuario no importa',
    'Cambiá la resolución del pixel de la cámara',
    'El producto está fuera de stock',
    'Tu pedido 2000009000001 sale mañana',
    'mercadopago.com.ar es el medio de pago de la plataforma',
    'Comprá directamente en la publicación',
    'Pagamento Pix: aprovado',
  ])('%s', (text) => expectClean(text));

  it('a 22-digit run with wrong check digits and no keyword is not bank data', () => {
    expectNoFindingOf('ref 2850590940090418135202', 'LINK_PAYMENT');
  });
});
