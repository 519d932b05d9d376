import { describe, expect, it } from 'vitest';
import { isAmount, isReference, isValidCbu, isValidCnpj, isValidCpf, isValidCuit } from '../../../../common/messages/moderation/identifiers.js';
import { foldAccents, locate, prepare } from '../../../../common/messages/moderation/prepared.js';

describe('check digits', () => {
  it('CPF', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('12345678909')).toBe(true);
    expect(isValidCpf('529.982.247-26')).toBe(false);
    expect(isValidCpf('111.111.111-11')).toBe(false);
    expect(isValidCpf('1234567890')).toBe(false);
  });

  it('CNPJ', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('11.222.333/0001-82')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
  });

  it('CUIT/CUIL', () => {
    expect(isValidCuit('20-30123456-3')).toBe(true);
    expect(isValidCuit('27-25987654-6')).toBe(true);
    expect(isValidCuit('20-30123456-7')).toBe(false);
    expect(isValidCuit('10-30123456-3')).toBe(false); // unknown prefix
  });

  it('CBU/CVU', () => {
    expect(isValidCbu('2850590940090418135201')).toBe(true);
    expect(isValidCbu('2850590940090418135200')).toBe(false);
    expect(isValidCbu('285059094009041813520')).toBe(false);
  });
});

describe('context of a number', () => {
  const at = (view: string, number: string) => {
    const start = view.indexOf(number);
    return [view, start, start + number.length] as const;
  };

  it('recognises amounts by a currency before or a unit after', () => {
    expect(isAmount(...at('el precio es $ 15.999', '15.999'))).toBe(true);
    expect(isAmount(...at('r$ 1.234,56', '1.234,56'))).toBe(true);
    expect(isAmount(...at('usd 20', '20'))).toBe(true);
    expect(isAmount(...at('son 1500 unidades', '1500'))).toBe(true);
    expect(isAmount(...at('mi cel 1144445555', '1144445555'))).toBe(false);
  });

  it('recognises references to orders, shipments and postal codes', () => {
    const ref = (view: string, number: string) => isReference(view, view.indexOf(number));
    expect(ref('pedido 2000009000001', '2000009000001')).toBe(true);
    expect(ref('orden #2000009000001', '2000009000001')).toBe(true);
    expect(ref('numero de pedido: 2000009000001', '2000009000001')).toBe(true);
    expect(ref('codigo de seguimiento 1234-5678', '1234-5678')).toBe(true);
    expect(ref('cep 01310-100', '01310-100')).toBe(true);
    expect(ref('mi cel 1144445555', '1144445555')).toBe(false);
  });
});

describe('normalization', () => {
  it('folds accents but keeps ñ (also decomposed)', () => {
    expect(foldAccents('teléfono reclamação pingüino')).toBe('telefono reclamacao pinguino');
    expect(foldAccents('año coño')).toBe('año coño');
    expect(foldAccents('an\u0303o')).toBe('año');
  });

  it('builds lower and folded views and maps them back to the original', () => {
    const p = prepare('ＴＥＬÉＦＯＮＯ: mier\u00ADda 👍🏽');
    expect(p.lower).toBe('teléfono: mierda 👍🏽');
    expect(p.folded).toBe('telefono: mierda 👍🏽');
    const start = p.folded.indexOf('mierda');
    expect(locate(p, 'folded', start, start + 'mierda'.length)).toEqual({ index: 10, match: 'mier\u00ADda' });
    expect(locate(p, 'folded', 0, 8)).toEqual({ index: 0, match: 'ＴＥＬÉＦＯＮＯ' });
  });
});
