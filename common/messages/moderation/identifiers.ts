/**
 * Check digits of the identifiers the personal-data and payment rules look for, and the context
 * tests that tell a price or an order number from personal data. Pure helpers over the `folded`
 * view (lower case, no accents).
 */

export const digitsOf = (s: string) => s.replace(/\D/g, '');

const toDigits = (s: string) => Array.from(digitsOf(s), Number);
const weighted = (digits: readonly number[], weights: readonly number[]) => weights.reduce((sum, w, i) => sum + w * (digits[i] ?? 0), 0);
const allSame = (s: string) => /^(\d)\1*$/.test(s);

/** Brazilian CPF (11 digits, two mod-11 check digits); all-equal sequences are invalid. */
export function isValidCpf(value: string): boolean {
  const s = digitsOf(value);
  if (s.length !== 11 || allSame(s)) return false;
  const d = toDigits(s);
  const check = (n: number) => {
    const r =
      (weighted(
        d,
        Array.from({ length: n }, (_, i) => n + 1 - i),
      ) *
        10) %
      11;
    return r === 10 ? 0 : r;
  };
  return check(9) === d[9] && check(10) === d[10];
}

/** Brazilian CNPJ (14 digits, two mod-11 check digits). */
export function isValidCnpj(value: string): boolean {
  const s = digitsOf(value);
  if (s.length !== 14 || allSame(s)) return false;
  const d = toDigits(s);
  const check = (weights: number[]) => {
    const r = weighted(d, weights) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return check([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === d[12] && check([6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === d[13];
}

/** Argentine CUIT/CUIL (11 digits, mod-11 check digit, person or company prefix). */
export function isValidCuit(value: string): boolean {
  const s = digitsOf(value);
  if (s.length !== 11 || !/^(20|23|24|27|30|33|34)/.test(s)) return false;
  const d = toDigits(s);
  const r = 11 - (weighted(d, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11);
  const check = r === 11 ? 0 : r;
  return check !== 10 && check === d[10];
}

/** Argentine CBU/CVU (22 digits in two blocks, each with a mod-10 check digit). */
export function isValidCbu(value: string): boolean {
  const s = digitsOf(value);
  if (s.length !== 22 || allSame(s)) return false;
  const d = toDigits(s);
  const check = (digits: number[], weights: number[]) => (10 - (weighted(digits, weights) % 10)) % 10;
  const first = check(d.slice(0, 7), [7, 1, 3, 9, 7, 1, 3]) === d[7];
  const second = check(d.slice(8, 21), [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3]) === d[21];
  return first && second;
}

/** Currency signs, codes and price words that, right before a number, make it an amount. */
const CURRENCY_BEFORE =
  /(?:\$|r\$|us\$|u\$s|u\$d|usd|ars|brl|eur|€|£|precio|preco|valor|price|total|cuesta|custa|cuestan|custam|sale|salen|costo|custo|cost|costs|pesos|reais)(?:\s+(?:es|e|is|de|of|final|total))?\s*[:=]?\s*[-+]?\s*$/;
/** Words right after a number that make it an amount or a quantity. */
const AMOUNT_AFTER =
  /^\s*(?:pesos|peso|reais|real|dolares|dolar|dollars|dollar|usd|ars|brl|mil\b|k\b|unidades|unidad|unidade|un\b|uds?\b|pcs|piezas|pecas|items|itens|kg|g\b|gr|cm|mm|m\b|mts|ml|lts?|%)/;

export const isAmount = (view: string, start: number, end: number) =>
  CURRENCY_BEFORE.test(view.slice(Math.max(0, start - 16), start)) || AMOUNT_AFTER.test(view.slice(end, end + 12));

/**
 * Words that, shortly before a number, say what it is when it is not contact data: orders,
 * shipments and tracking, postal codes, invoices, product references.
 */
const REFERENCE_BEFORE =
  /(?:pedido|pedidos|orden|ordenes|order|orders|compra|venta|venda|pack|paquete|envio|envios|shipping|shipment|seguimiento|tracking|rastreio|rastreamento|codigo|code|cp|cep|zip|postal|factura|fatura|invoice|nota fiscal|nf|nfe|comprobante|recibo|ticket|ref|referencia|sku|modelo|model|item|articulo|artigo|producto|produto|publicacion|anuncio|mla|mlb|serie|serial|lote|operacion|transaccion|oca|andreani|correo|correios|sedex|guia|remito)\s*(?:de\s+\w+\s*)?(?:n[°º.o]?|nro\.?|num\.?|numero|#|no\.?)?\s*[:#=-]?\s*$/;

export const isReference = (view: string, start: number) => REFERENCE_BEFORE.test(view.slice(Math.max(0, start - 40), start));
