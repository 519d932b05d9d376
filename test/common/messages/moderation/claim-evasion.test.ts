import { describe, it } from 'vitest';
import { expectClean, expectRejected } from './helpers.js';

describe('EVASION_CLAIM_SELLER: withdrawing a claim', () => {
  it.each([
    ['Por favor cerrá el reclamo', 'cerrá el reclamo'],
    ['cancelá la mediación por favor', 'cancelá la mediación'],
    ['Si retirás la queja te devuelvo la plata', 'retirás la queja'],
    ['necesito que des de baja el reclamo', 'des de baja el reclamo'],
    ['podrías cerrar por favor el reclamo abierto?', 'cerrar por favor el reclamo'],
    ['retire a reclamação que eu resolvo', 'retire a reclamação'],
    ['fecha a disputa por favor', 'fecha a disputa'],
    ['pode cancelar a mediação?', 'cancelar a mediação'],
    ["cancel the dispute and I'll refund", 'cancel the dispute'],
    ['Please withdraw your complaint', 'withdraw your complaint'],
    ['close the claim please', 'close the claim'],
    ['CERRÁ EL RECLAMO', 'CERRÁ EL RECLAMO'],
  ])('%s', (text, match) => expectRejected(text, 'EVASION_CLAIM_SELLER', 'claim.withdraw-request', match));

  it.each([
    ['no abras un reclamo, te lo soluciono', 'no abras un reclamo'],
    ['Não abra reclamação, eu resolvo', 'Não abra reclamação'],
    ["please don't open a dispute", "don't open a dispute"],
    ['No inicies una mediación todavía', 'No inicies una mediación'],
  ])('discouraging: %s', (text, match) => expectRejected(text, 'EVASION_CLAIM_SELLER', 'claim.discourage', match));
});

describe('EVASION_CLAIM_SELLER: rating in exchange', () => {
  it.each([
    ['Calificame positivo y te devuelvo el envío', 'Calificame positivo y te devuelvo el envío'],
    ['Dejame 5 estrellas a cambio de un descuento en tu próxima compra', 'Dejame 5 estrellas a cambio de un descuento en tu próxima compra'],
    ['Me avalia com 5 estrelas que eu te dou um cupom', 'Me avalia com 5 estrelas que eu te dou um cupom'],
    ["Leave a 5-star review and I'll refund you", "Leave a 5-star review and I'll refund you"],
    ['Cambiá la calificación negativa y te reintegro el dinero', 'Cambiá la calificación negativa y te reintegro el dinero'],
    ['Dejame una buena calificación. Te devuelvo $ 500.', 'Dejame una buena calificación'],
    ['Leave a good rating and get 10% off', 'Leave a good rating and get 10% off'],
  ])('%s', (text, match) => expectRejected(text, 'EVASION_CLAIM_SELLER', 'claim.rating-exchange', match));
});

describe('EVASION_CLAIM_SELLER: false positives avoided', () => {
  it.each([
    'Tu reclamo fue cerrado, gracias por la paciencia',
    'Ayer se cerró el reclamo',
    'Lamentamos que hayas tenido que abrir un reclamo, ya te enviamos el reemplazo',
    'A reclamação foi encerrada',
    'The claim was closed yesterday',
    'Cancelamos la compra por el reclamo que abriste',
    'Podés cancelar en caso de que no llegue',
    'Si no recibís el producto, no dudes en abrir un reclamo',
    'Gracias por tu compra! Si te gustó, tu calificación positiva nos ayuda mucho',
    'Uma avaliação positiva ajuda muito, obrigado!',
    'Si el producto falla te hacemos el reembolso; y si te gustó, una calificación positiva nos ayuda',
    'Segue a nota fiscal, boa compra e bom uso',
    'Gracias por tu compra, una buena calificación nos ayuda. Si tenés algún problema te devuelvo el dinero.',
    'Tu opinión nos importa: el envío tarda 5 días y te devolvemos el dinero si no llega',
    'La disputa por el precio terminó, ya bajó',
    'Retirá el producto en la sucursal',
  ])('%s', (text) => expectClean(text));
});
