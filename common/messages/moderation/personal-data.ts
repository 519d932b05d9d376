/**
 * PERSONAL_DATA: contact or identity data that would take the conversation off the platform.
 *
 * Detects
 * - e-mail addresses, also with spaces around "@" or ".", and disguised: "martin arroba gmail punto
 *   com", "martin (at) gmail (dot) com", "martin [at] hotmail", "martin at gmail dot com";
 * - phone numbers: international ("+54 9 11 4444-5555", "+55 11 91234-5678", "+1 555 123 4567"),
 *   with an area code in parentheses ("(11) 4444-5555", "(011) 15 4444-5555"), grouped
 *   ("11 4444-5555", "011 15 4444 5555", "351 444-5555", "555-123-4567", "11 91234-5678"),
 *   local ("4444-5555", "15-4444-5555", "91234-5678"), and any 8-15 digit run right after a
 *   phone word ("cel", "tel", "llamame", "ligue", "phone", "mi número"...) or a WhatsApp word
 *   ("whatsapp", "wpp", "wsp", "zap");
 * - identity numbers: Argentine DNI after "DNI"/"documento" ("DNI 30.123.456"), Brazilian RG after
 *   "RG"; CUIT/CUIL ("20-30123456-3": formatted with a valid check digit; or any 11 digits after
 *   "CUIT"/"CUIL", "CUIT 20-30123456-7");
 *   Brazilian CPF ("529.982.247-25": formatted with valid check digits, or any after "CPF") and
 *   CNPJ ("11.222.333/0001-81": formatted with valid check digits, or any after "CNPJ");
 * - asking for the buyer's contact: "pasame tu celular", "¿cuál es tu mail?", "me passa seu zap",
 *   "send me your phone number" (but not "tu número de pedido", nor "tu dirección": the seller
 *   needs the shipping address).
 *
 * False positives avoided
 * - prices and amounts: a number after "$", "R$", "USD", "precio", "valor"... or before "pesos",
 *   "reais", "unidades", "kg"... is never a phone ("$ 15.999", "R$ 1.234,56", "USD 20"); thousands
 *   groups of three ("1.234.567") do not look like any phone format;
 * - order, pack and shipment numbers ("2000009000001", "pedido 2000009000001", "orden #…"): bare
 *   digit runs are only a phone after a phone word, and never right after "pedido", "orden",
 *   "envío", "seguimiento", "código", "CP"/"CEP", "factura", "SKU"...;
 * - dates ("15/03/2024", "2024-03-15"), year ranges ("2019-2021"), postal codes ("C1425ABC",
 *   "CEP 01310-100"), tracking codes with letters, quantities, and lists of round numbers
 *   ("1500 2000 2500"), invoice numbers ("Factura A 0001-00001234");
 * - 11-digit runs are not taken for a CPF/CUIT without formatting or the keyword (shipment ids).
 */
import { digitsOf, isAmount, isReference, isValidCnpj, isValidCpf, isValidCuit } from './identifiers.js';
import { alternation, patternRule, type Rule } from './rule.js';

const REASON = 'PERSONAL_DATA' as const;

const PROVIDERS = ['gmail', 'googlemail', 'hotmail', 'outlook', 'yahoo', 'live', 'icloud', 'uol', 'bol', 'terra', 'protonmail', 'proton', 'aol', 'msn'];
const TLDS = ['com', 'net', 'org', 'edu', 'gov', 'info', 'biz', 'io', 'ar', 'br', 'mx', 'cl', 'uy', 'co', 'es', 'us', 'me'];

const LOCAL_PART = String.raw`[a-z0-9](?:[a-z0-9._%+-]*[a-z0-9_-])?`;

export const emailRule = patternRule({
  id: 'personal.email',
  reason: REASON,
  message: 'Looks like an e-mail address: messages with personal data are rejected.',
  pattern: new RegExp(
    String.raw`(?<![\w.+-])${LOCAL_PART}\s?@\s?(?:[a-z0-9-]+(?:\s?\.\s?[a-z0-9-]+)*\s?\.\s?[a-z]{2,}|(?:${alternation(PROVIDERS)}))(?![\w-])`,
  ),
  requires: /@/,
});

/** "arroba", "(at)", "[at]", "{arroba}": strong enough to accept a bare provider name after it. */
const AT_STRONG = String.raw`(?:\s*[(\[{<]\s*(?:at|arroba|@)\s*[)\]}>]\s*|\s*\barroba\b\s*|arroba)`;
/** " at ": an English word too, so only with a full domain and top-level domain after it. */
const AT_WEAK = String.raw`\s+at\s+`;
const DOT = String.raw`(?:\s*[(\[{<]\s*(?:dot|punto|ponto|\.)\s*[)\]}>]\s*|\s+(?:dot|punto|ponto)\s+|\s?\.\s?)`;
const DOMAIN_WITH_TLD = String.raw`[a-z0-9-]+(?:${DOT}[a-z0-9-]+)*${DOT}(?:${alternation(TLDS)})`;

export const obfuscatedEmailRule = patternRule({
  id: 'personal.email-obfuscated',
  reason: REASON,
  message: 'Looks like a disguised e-mail address ("arroba", "at", "(at)"): messages with personal data are rejected.',
  pattern: new RegExp(
    String.raw`(?<![\w.+-])${LOCAL_PART}(?:${AT_STRONG}(?:${DOMAIN_WITH_TLD}|${alternation(PROVIDERS)})|${AT_WEAK}${DOMAIN_WITH_TLD})(?![\w-])`,
  ),
  // What AT_STRONG or AT_WEAK cannot match without.
  requires: /@|arroba|[([{<]\s*at\s*[)\]}>]|\sat\s/,
});

/** A run of 8-15 digits, each separated by at most two of space ( ) . - */
const PHONE_DIGITS = String.raw`\+?\(?\d(?:[\s().-]{0,2}\d){7,14}(?![\s().-]{0,2}\d)`;
const NOT_CONTACT_FILLER =
  /(?:pedido|orden|order|compra|envio|seguimiento|tracking|rastreio|codigo|code|cp|cep|zip|factura|fatura|precio|preco|valor|price|total|cuesta|custa|dni|cpf|cnpj|cuit|cuil|cbu|cvu)\b|\$/;

const notAmountOrReference = (m: RegExpExecArray, view: string): boolean => {
  const [start, end] = m.indices?.groups?.['hit'] ?? m.indices?.[0] ?? [m.index, m.index + m[0].length];
  return !isAmount(view, start, end) && !isReference(view, start);
};

const contactNumber = (m: RegExpExecArray, view: string): boolean => !NOT_CONTACT_FILLER.test(m.groups?.['fill'] ?? '') && notAmountOrReference(m, view);

const PHONE_WORDS = [
  'cel',
  'celu',
  'celular',
  'cell',
  'cellphone',
  'movil',
  'mobile',
  'tel',
  'telefono',
  'telefone',
  'telf',
  'tlf',
  'phone',
  'fono',
  'fone',
  'contacto',
  'contato',
  'llamame',
  'llamanos',
  'llamar',
  'llama',
  'llamada',
  'ligue',
  'liga',
  'ligar',
  'call',
  'text',
  'sms',
  'mi numero',
  'meu numero',
  'my number',
  'nuestro numero',
  'nosso numero',
  'numero de contacto',
  'numero de contato',
  'numero de celular',
  'numero de telefono',
  'numero de telefone',
];

export const phoneContextRule = patternRule({
  id: 'personal.phone-context',
  reason: REASON,
  message: 'Looks like a phone number: messages with personal data are rejected.',
  pattern: new RegExp(String.raw`\b(?:${alternation(PHONE_WORDS)})\b(?<fill>[^\d\n!?]{0,25}?)(?<hit>${PHONE_DIGITS})`),
  accept: contactNumber,
});

const WHATSAPP_WORDS = ['whatsapp', 'whats app', 'whatsap', 'watsap', 'wasap', 'guasap', 'whats', 'wpp', 'wsp', 'wa', 'zap', 'zapzap'];

export const whatsappNumberRule = patternRule({
  id: 'personal.whatsapp-number',
  reason: REASON,
  message: 'Looks like a WhatsApp number: messages with personal data are rejected.',
  pattern: new RegExp(String.raw`\b(?:${alternation(WHATSAPP_WORDS)})\b(?<fill>[^\d\n!?]{0,25}?)(?<hit>${PHONE_DIGITS})`),
  accept: contactNumber,
});

export const internationalPhoneRule = patternRule({
  id: 'personal.phone-international',
  reason: REASON,
  message: 'Looks like a phone number with a country code: messages with personal data are rejected.',
  pattern: /(?<![\w+])\+\s?\d(?:[\s().-]{0,2}\d){9,14}(?![\s().-]{0,2}\d)/,
  requires: /\+/,
});

/** Every group of three or more digits ends in "00": a list of round amounts, not a phone. */
const roundNumbers = (s: string) => {
  const groups = s.split(/\D+/).filter((g) => g.length >= 3);
  return groups.length >= 2 && groups.every((g) => g.endsWith('00'));
};

/** Argentine invoice/receipt numbers: point of sale (4-5 digits) and number (8 digits), "0001-00001234". */
const INVOICE_NUMBER = /^\d{4,5}-\d{8}$/;

export const formattedPhoneRule = patternRule({
  id: 'personal.phone-formatted',
  reason: REASON,
  message: 'Looks like a phone number: messages with personal data are rejected.',
  pattern: new RegExp(
    [
      // (11) 4444-5555, (011) 15 4444-5555, (11) 91234-5678, (555) 123-4567
      String.raw`(?<!\d)\(\s?0?\d{2,4}\s?\)\s?(?:15[\s.-]?)?\d{3,5}[\s.-]?\d{4}`,
      // 11 4444-5555, 011 15 4444 5555, 9 11 4444 5555, 351 444-5555, 555-123-4567, 11 91234-5678
      String.raw`(?<![\d.,/-])(?:9[\s.-]?)?0?\d{2,4}[\s.-]+(?:15[\s.-]*)?\d{3,5}[\s.-]?\d{4}`,
    ]
      .map((p) => `(?:${p})`)
      .join('|') + String.raw`(?![\d]|[.,/-]\d)`,
  ),
  // The end of both alternatives.
  requires: /\d{3}[\s.-]?\d{4}/,
  accept: (m, view) => {
    const digits = digitsOf(m[0]).length;
    return digits >= 8 && digits <= 13 && !roundNumbers(m[0]) && !INVOICE_NUMBER.test(m[0]) && notAmountOrReference(m, view);
  },
});

const YEAR_RANGE = /^(?:19|20)\d\d-(?:19|20)\d\d$/;

export const localPhoneRule = patternRule({
  id: 'personal.phone-local',
  reason: REASON,
  message: 'Looks like a phone number: messages with personal data are rejected.',
  // 4444-5555, 15-4444-5555, 91234-5678
  pattern: /(?<![\d.,/-])(?:15[\s-]?)?(?:9\d{4}|\d{4})-\d{4}(?![\d]|[.,/-]\d)/,
  requires: /\d{4}-\d{4}/,
  accept: (m, view) => !YEAR_RANGE.test(m[0]) && !roundNumbers(m[0]) && notAmountOrReference(m, view),
});

const ID_FILLER = String.raw`[^\d\n]{0,12}?`;
const NOT_ID_FILLER = /(?:pedido|orden|order|compra|venta|envio|seguimiento|codigo|factura|precio|valor|\$)/;

export const identityDocumentRule = patternRule({
  id: 'personal.identity-document',
  reason: REASON,
  message: 'Looks like an identity document number (DNI/RG): messages with personal data are rejected.',
  pattern: new RegExp(
    String.raw`\b(?:dni|d\.\s?n\.\s?i|documento(?:\s+nacional)?(?:\s+de\s+identidad(?:e)?)?|doc|cedula(?:\s+de\s+identidad)?|rg|r\.g)(?![a-z])(?<fill>${ID_FILLER})(?<hit>(?<![\d.])\d{1,2}\.?\d{3}\.?\d{3}(?:-[\dx])?)(?![\d]|[.,]\d)`,
  ),
  // Part of each keyword: dni, d.n.i, documento, doc, cedula, rg, r.g.
  requires: /dni|d\.\s?n|doc|cedula|rg|r\.g/,
  accept: (m) => !NOT_ID_FILLER.test(m.groups?.['fill'] ?? ''),
});

/** `kw` matched (the number follows its keyword) or the number is formatted and its check digits hold. */
const keywordOrValid = (isFormatted: (hit: string) => boolean, isValid: (hit: string) => boolean) => (m: RegExpExecArray) => {
  const hit = m.groups?.['hit'] ?? '';
  return m.groups?.['kw'] !== undefined || (isFormatted(hit) && isValid(hit));
};

export const cuitRule = patternRule({
  id: 'personal.cuit',
  reason: REASON,
  message: 'Looks like an Argentine tax id (CUIT/CUIL): messages with personal data are rejected.',
  pattern: new RegExp(String.raw`(?<kw>\b(?:cuit|cuil|cdi)\b${ID_FILLER})?(?<![\d.,/-])(?<hit>(?:20|23|24|27|30|33|34)[\s.-]?\d{8}[\s.-]?\d)(?![\d]|[.,/-]\d)`),
  requires: /\d{8}/,
  accept: keywordOrValid((hit) => /[\s.-]/.test(hit), isValidCuit),
});

export const cpfRule = patternRule({
  id: 'personal.cpf',
  reason: REASON,
  message: 'Looks like a Brazilian CPF number: messages with personal data are rejected.',
  pattern: new RegExp(String.raw`(?<kw>\bcpf\b${ID_FILLER})?(?<![\d.,/-])(?<hit>\d{3}[\s.]?\d{3}[\s.]?\d{3}[\s.-]?\d{2})(?![\d]|[.,/-]\d)`),
  requires: /\d{3}[\s.]?\d{3}/,
  accept: keywordOrValid((hit) => hit.includes('-'), isValidCpf),
});

export const cnpjRule = patternRule({
  id: 'personal.cnpj',
  reason: REASON,
  message: 'Looks like a Brazilian CNPJ number: messages with personal data are rejected.',
  pattern: new RegExp(String.raw`(?<kw>\bcnpj\b${ID_FILLER})?(?<![\d.,/-])(?<hit>\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2})(?![\d]|[.,/-]\d)`),
  requires: /\d{3}\.?\d{3}/,
  accept: keywordOrValid((hit) => hit.includes('/'), isValidCnpj),
});

const CONTACT_ASKING = [
  'pasame',
  'pasa',
  'pasas',
  'me pasas',
  'me pasarias',
  'dame',
  'me das',
  'mandame',
  'enviame',
  'cual es',
  'decime',
  'me passa',
  'passa',
  'me manda',
  'manda',
  'me envia',
  'qual e',
  'me fala',
  'me diz',
  'send me',
  'give me',
  'what is',
  "what's",
  'share',
];
const CONTACT_DATA = [
  'numero',
  'celular',
  'cel',
  'celu',
  'telefono',
  'telefone',
  'tel',
  'movil',
  'mail',
  'email',
  'e-mail',
  'correo',
  'whatsapp',
  'whats',
  'wpp',
  'wsp',
  'zap',
  'contacto',
  'contato',
  'number',
  'phone',
  'cell',
  'phone number',
];

export const contactRequestRule = patternRule({
  id: 'personal.contact-request',
  reason: REASON,
  message: 'Looks like asking for a phone number or e-mail address: messages with personal data are rejected.',
  pattern: new RegExp(
    String.raw`\b(?:${alternation(CONTACT_ASKING)})\s+(?:me\s+)?(?:tu|su|seu|sua|your|el\s+tuyo|o\s+seu)\s+(?:${alternation(CONTACT_DATA)})\b(?!\s+(?:de|do|da|of)\s+(?:pedido|orden|compra|venta|venda|seguimiento|rastreio|operacion|order|tracking|envio|cliente|factura|documento|cuenta))`,
  ),
});

export const personalDataRules: readonly Rule[] = [
  emailRule,
  obfuscatedEmailRule,
  internationalPhoneRule,
  whatsappNumberRule,
  phoneContextRule,
  formattedPhoneRule,
  localPhoneRule,
  identityDocumentRule,
  cuitRule,
  cpfRule,
  cnpjRule,
  contactRequestRule,
];
