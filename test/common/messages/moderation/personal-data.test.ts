import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findIssues } from '../../../../common/messages/moderation/index.js';
import { expectClean, expectNoFindingOf, expectRejected } from './helpers.js';

const personal = (text: string) => findIssues(text).filter((f) => f.reason === 'PERSONAL_DATA');

describe('PERSONAL_DATA: e-mail addresses', () => {
  it.each([
    ['escribime a martin.gomez@example.com', 'martin.gomez@example.com'],
    ['meu e-mail: joao_silva+loja@uol.com.br', 'joao_silva+loja@uol.com.br'],
    ['email me at JOHN.DOE@Gmail.com please', 'JOHN.DOE@Gmail.com'],
    ['mandame a juan @ gmail . com', 'juan @ gmail . com'],
    ['mi correo es lucia@hotmail', 'lucia@hotmail'],
    ['ＡＮＡ＠ＧＭＡＩＬ．ＣＯＭ', 'ＡＮＡ＠ＧＭＡＩＬ．ＣＯＭ'],
  ])('%s', (text, match) => expectRejected(text, 'PERSONAL_DATA', 'personal.email', match));

  it.each([
    ['escribime a martin arroba gmail punto com', 'martin arroba gmail punto com'],
    ['contato: ana(at)yahoo(dot)com(dot)br', 'ana(at)yahoo(dot)com(dot)br'],
    ['write to john at outlook dot com', 'john at outlook dot com'],
    ['sofia [at] hotmail', 'sofia [at] hotmail'],
    ['pedro arroba gmail, gracias', 'pedro arroba gmail'],
    ['martinarrobagmail.com', 'martinarrobagmail.com'],
  ])('disguised: %s', (text, match) => expectRejected(text, 'PERSONAL_DATA', 'personal.email-obfuscated', match));

  it.each([
    'Una arroba de papas son 25 libras',
    'I will be at home at 5 pm',
    'Look at the photos of the product',
    'Nos vemos en el local, saludos',
    'Te respondo a la brevedad. Saludos, Martín',
  ])('not an e-mail: %s', (text) => expectClean(text));
});

describe('PERSONAL_DATA: phone numbers', () => {
  it.each([
    ['+54 9 11 4444-5555', 'personal.phone-international', '+54 9 11 4444-5555'],
    ['Llamame al +55 11 91234-5678', 'personal.phone-international', '+55 11 91234-5678'],
    ['call me at +1 (555) 123-4567', 'personal.phone-international', '+1 (555) 123-4567'],
    ['mi cel 11 4444-5555', 'personal.phone-context', '11 4444-5555'],
    ['mi teléfono es (11) 4444-5555', 'personal.phone-context', '(11) 4444-5555'],
    ['meu número é 11 91234-5678', 'personal.phone-context', '11 91234-5678'],
    ['me liga 91234-5678', 'personal.phone-context', '91234-5678'],
    ['text me 555 123 4567', 'personal.phone-context', '555 123 4567'],
    ['Tel.: 1144445555', 'personal.phone-context', '1144445555'],
    ['(11) 4444-5555', 'personal.phone-formatted', '(11) 4444-5555'],
    ['(011) 15 4444-5555 de 9 a 18', 'personal.phone-formatted', '(011) 15 4444-5555'],
    ['fijo: 0351 444-5555', 'personal.phone-formatted', '0351 444-5555'],
    ['Our office: 555-123-4567', 'personal.phone-formatted', '555-123-4567'],
    ['11 91234-5678 é o meu', 'personal.phone-formatted', '11 91234-5678'],
    ['9 11 4444 5555', 'personal.phone-formatted', '9 11 4444 5555'],
    ['Atención al cliente 0800-444-5555', 'personal.phone-formatted', '0800-444-5555'],
    ['15-4444-5555', 'personal.phone-formatted', '15-4444-5555'],
    ['te dejo el 4444-5555', 'personal.phone-local', '4444-5555'],
    ['91234-5678', 'personal.phone-local', '91234-5678'],
  ])('%s', (text, rule, match) => expectRejected(text, 'PERSONAL_DATA', rule, match));

  it.each([
    ['whatsapp 1144445555', '1144445555'],
    ['mandame un wpp al 11 3333 4444', '11 3333 4444'],
    ['me chama no zap 11987654321', '11987654321'],
    ['WhatsApp: +54 9 351 444 5555', '+54 9 351 444 5555'],
    ['wsp 3515555555', '3515555555'],
  ])('WhatsApp: %s', (text, match) => {
    // the international rule finds the same span for "+54…"; either way it is one finding
    const finding = personal(text);
    expect(finding).toHaveLength(1);
    expect(finding[0]?.match).toBe(match);
    expectRejected(text, 'PERSONAL_DATA', finding[0]?.rule ?? '', match);
    expect(['personal.whatsapp-number', 'personal.phone-international']).toContain(finding[0]?.rule);
  });

  it('reports one finding per number, not one per rule', () => {
    expect(personal('mi cel 11 4444-5555')).toHaveLength(1);
    expect(personal('cel 11 4444-5555 o 11 5555-6666')).toHaveLength(2);
  });
});

describe('PERSONAL_DATA: identity numbers', () => {
  it.each([
    ['DNI 30.123.456', 'personal.identity-document', '30.123.456'],
    ['D.N.I. nº 7.123.456', 'personal.identity-document', '7.123.456'],
    ['mi documento es 30123456', 'personal.identity-document', '30123456'],
    ['RG 12.345.678-9', 'personal.identity-document', '12.345.678-9'],
    ['CUIT 20-30123456-7', 'personal.cuit', '20-30123456-7'],
    ['cuil: 27259876546', 'personal.cuit', '27259876546'],
    ['facturá a 20-30123456-3', 'personal.cuit', '20-30123456-3'],
    ['CPF 529.982.247-25', 'personal.cpf', '529.982.247-25'],
    ['meu cpf é 52998224725', 'personal.cpf', '52998224725'],
    ['123.456.789-09', 'personal.cpf', '123.456.789-09'],
    ['CNPJ 11.222.333/0001-81', 'personal.cnpj', '11.222.333/0001-81'],
    ['emitir nota para 11.222.333/0001-81', 'personal.cnpj', '11.222.333/0001-81'],
    ['cnpj 11222333000100', 'personal.cnpj', '11222333000100'],
  ])('%s', (text, rule, match) => expectRejected(text, 'PERSONAL_DATA', rule, match));

  it.each([
    '123.456.789-00', // CPF format, wrong check digits
    '111.111.111-11', // passes the checksum, but all digits equal
    '20-30123456-7', // CUIT format, wrong check digit, no keyword
    '11.222.333/0001-00', // CNPJ format, wrong check digits
    'Tu envío 20301234563 ya salió', // an 11-digit shipment id
    'el envío 41234567890 ya está en camino',
    'documento de compra 30123456',
  ])('not an identity number: %s', (text) => expectNoFindingOf(text, 'PERSONAL_DATA'));
});

describe('PERSONAL_DATA: asking for contact data', () => {
  it.each([
    ['¿Me pasás tu número?', 'Me pasás tu número'],
    ['¿Cuál es tu mail?', 'Cuál es tu mail'],
    ['me passa seu zap', 'me passa seu zap'],
    ['send me your phone number', 'send me your phone number'],
  ])('%s', (text, match) => expectRejected(text, 'PERSONAL_DATA', 'personal.contact-request', match));

  it.each(['pasame tu número de pedido', 'Pasame tu dirección completa para el envío por favor', 'me passa seu número do pedido', 'send me your order number'])(
    'not a contact request: %s',
    (text) => expectClean(text),
  );
});

describe('PERSONAL_DATA: false positives avoided', () => {
  it.each([
    'El precio es $ 15.999',
    'tu pedido 2000009000001 sale mañana',
    'pedido 2000009000001',
    'orden #2000009000001',
    'número de pedido: 2000009000001',
    'mi número de pedido es 2000009000001',
    'O valor é R$ 1.234,56',
    'Son USD 20 de envío',
    'total $ 1.234.567',
    'te lo dejo en 15.000.000 de pesos',
    'llamame, el precio es 15.000.000',
    'Son 12 cuotas de $ 4.999,99',
    'Llega el 15/03/2024 entre las 9 y las 18 hs',
    'fecha de entrega: 2024-03-15',
    'sirve para modelos 2019-2021',
    'CP 1425, CABA',
    'CEP 01310-100',
    'ZIP 90210-1234',
    'código de seguimiento OA123456789AR',
    'seguimiento 1234-5678-9012',
    'tengo 1500 unidades, te mando 20',
    'precios: 1500 2000 2500',
    'Talle 42, código de producto 1234-5678',
    'Referencia 4444-5555',
    'Peso: 1,5 kg; medidas 30 x 20 x 10 cm',
    'Horario de 9-18 hs, 20% de descuento',
    'Your order 2000009000001 ships tomorrow, tracking LB123456789BR',
    'Obrigado pela compra! O pedido 2000009000001 sai amanhã.',
    'Factura A 0001-00001234 emitida',
    'El ticket de la compra es el 0003-00012345',
    'Código de barras 7791234567890, peso 25 kg',
    'Hola Juan! Tu pedido #2000009000001 ya fue despachado, el número de seguimiento es 41234567890. Llega entre el 12/05 y el 15/05.',
  ])('%s', (text) => expectClean(text));

  it('property: prices formatted by Intl.NumberFormat (es-AR, pt-BR, en-US) are never personal data', () => {
    const formats = [
      new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS' }),
      new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }),
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }),
      new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'USD' }),
      new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS', maximumFractionDigits: 0 }),
    ];
    const sentences = [(p: string) => p, (p: string) => `El precio es ${p}`, (p: string) => `O valor é ${p}, obrigado`, (p: string) => `Total: ${p}.`];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), fc.constantFrom(...formats), fc.constantFrom(...sentences), (cents, format, sentence) => {
        const text = sentence(format.format(cents / 100));
        expect(personal(text), text).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('property: 13-digit order numbers after "pedido"/"orden"/"order" are never personal data', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 12 }),
        fc.constantFrom('pedido ', 'orden #', 'order ', 'pedido nº ', 'tu pedido ', 'o pedido '),
        (first, rest, prefix) => {
          const text = `${prefix}${first}${rest.join('')} sale mañana`;
          expect(personal(text), text).toEqual([]);
        },
      ),
    );
  });

  it('property: dates written by Intl.DateTimeFormat are never personal data', () => {
    const formats = ['es-AR', 'pt-BR', 'en-US'].map((l) => new Intl.DateTimeFormat(l, { timeZone: 'UTC' }));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.constantFrom(...formats), (ms, format) => {
        const text = `Llega el ${format.format(new Date(ms))}`;
        expect(personal(text), text).toEqual([]);
      }),
    );
  });
});
