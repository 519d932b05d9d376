/**
 * EVASION_CLAIM_SELLER: a seller pressing the buyer to drop a claim, or buying a good rating.
 *
 * Detects (Spanish, Portuguese, English)
 * - a request to close/withdraw/cancel a claim, complaint, dispute or mediation: "cerrá el
 *   reclamo", "cancelá la mediación por favor", "si retirás la queja te devuelvo", "dar de baja el
 *   reclamo", "retire a reclamação", "fecha a disputa", "cancel the dispute and I'll refund",
 *   "please withdraw your complaint" (not after "se"/"fue"/"foi"/"was"...: "se cerró el reclamo" reports);
 * - discouraging a claim: "no abras un reclamo", "não abra reclamação", "don't open a dispute";
 * - a good rating (or changing a bad one) in exchange for something: "calificame positivo y te
 *   devuelvo el envío", "dejame 5 estrellas a cambio de un descuento", "me avalia com 5 estrelas
 *   que eu te dou um cupom", "leave a 5-star review and I'll refund you", "cambiá la calificación
 *   negativa y te reintegro".
 *
 * False positives avoided
 * - talking about a claim without asking to drop it: "tu reclamo fue cerrado", "lamentamos que
 *   hayas tenido que abrir un reclamo", "a reclamação foi encerrada", "the claim was closed";
 * - only articles, possessives and courtesy words may stand between the verb and the claim noun,
 *   so "cancelamos la compra por el reclamo" or "podés cancelar en caso de..." pass ("caso" and
 *   "case" are not claim nouns: too common);
 * - asking for a rating without offering anything: "si te gustó, tu calificación positiva nos
 *   ayuda mucho", "uma avaliação positiva ajuda muito";
 * - "nota fiscal" is not a rating ("nota" is, in Portuguese).
 */
import { alternation, finding, patternRule, type Rule } from './rule.js';

const REASON = 'EVASION_CLAIM_SELLER' as const;

const CLAIM_NOUNS = [
  'reclamo',
  'reclamos',
  'reclamacion',
  'reclamaciones',
  'reclamacao',
  'reclamacoes',
  'queja',
  'quejas',
  'queixa',
  'queixas',
  'denuncia',
  'denuncias',
  'disputa',
  'disputas',
  'mediacion',
  'mediacao',
  'contracargo',
  'claim',
  'claims',
  'complaint',
  'complaints',
  'dispute',
  'disputes',
  'chargeback',
  'mediation',
];

const WITHDRAW_VERBS = [
  // es (folded: "cerrá" is "cerra")
  String.raw`cerr\w*`,
  String.raw`cierr\w*`,
  String.raw`retir\w*`,
  String.raw`cancel\w*`,
  String.raw`anul\w*`,
  String.raw`(?:dar|da|des|demos|de|dame)\s+de\s+baja`,
  'baja',
  'bajar',
  'bajes',
  'baje',
  'bajalo',
  'bajala',
  String.raw`saca\w*`,
  'saques',
  'saque',
  String.raw`quit\w*`,
  String.raw`elimin\w*`,
  String.raw`borr\w*`,
  String.raw`levant\w*`,
  String.raw`desist\w*`,
  String.raw`finaliz\w*`,
  String.raw`termin\w*`,
  // pt
  String.raw`fech\w*`,
  String.raw`encerr\w*`,
  String.raw`remov\w*`,
  String.raw`exclu\w*`,
  'tira',
  'tire',
  'tirar',
  'tiram',
  String.raw`apag\w*`,
  // en
  'close',
  'closing',
  String.raw`withdraw\w*`,
  'remove',
  'removing',
  'drop',
  'dropping',
  String.raw`retract\w*`,
  'delete',
  'deleting',
  String.raw`take\s+down`,
  String.raw`take\s+back`,
  String.raw`call\s+off`,
];

/** What may stand between the verb and the claim noun: articles, possessives, courtesy, "open". */
const BETWEEN = [
  'el',
  'la',
  'los',
  'las',
  'tu',
  'tus',
  'su',
  'sus',
  'ese',
  'esa',
  'este',
  'esta',
  'lo',
  'le',
  'me',
  'te',
  'nos',
  'de',
  'del',
  'mi',
  'por favor',
  'porfa',
  'xfa',
  'ya',
  'a',
  'o',
  'os',
  'as',
  'seu',
  'sua',
  'essa',
  'esse',
  'the',
  'your',
  'this',
  'that',
  'my',
  'our',
  'please',
  'pls',
  'now',
  'ahora',
  'agora',
  'un',
  'una',
  'um',
  'uma',
  'favor',
  'abierto',
  'abierta',
  'aberta',
  'aberto',
  'open',
  'opened',
  'pending',
  'pendiente',
  'pendente',
  'ja',
  'logo',
  'rapido',
];

export const withdrawClaimRule = patternRule({
  id: 'claim.withdraw-request',
  reason: REASON,
  message: 'Looks like a request to withdraw or close a claim: sellers may not press buyers about claims.',
  pattern: new RegExp(
    String.raw`(?<!\b(?:se|fue|foi|was|been|is|ha|han|has|have|had|esta|estan)\s+)\b(?:${WITHDRAW_VERBS.join('|')})(?:\s+(?:${alternation(BETWEEN)})){0,4}\s+(?:${alternation(CLAIM_NOUNS)})\b`,
  ),
  requires: new RegExp(alternation(CLAIM_NOUNS)),
});

export const discourageClaimRule = patternRule({
  id: 'claim.discourage',
  reason: REASON,
  message: 'Looks like asking the buyer not to open a claim: sellers may not press buyers about claims.',
  pattern: new RegExp(
    String.raw`\b(?:no|nao|don'?t|do\s+not|never|nunca|sin|sem)\s+(?:me\s+|nos\s+|le\s+|lhe\s+)?(?:abras|abra|abrir|abran|inicies|inicie|iniciar|hagas|haga|pongas|ponga|poner|faca|faz|fazer|open|file|start|raise|escalate|escales|escale)(?:\s+(?:un|una|el|la|um|uma|o|a|the|any|nenhum|nenhuma|ningun|ninguna|ese|esse|this|nuevo|novo|new))*\s+(?:${alternation(CLAIM_NOUNS)})\b`,
  ),
  requires: new RegExp(alternation(CLAIM_NOUNS)),
});

const ratingWords = (nota: string) =>
  String.raw`\b(?:calific\w*|opinion|resena|resenas|estrellas|puntuacion|puntuame|puntuanos|puntuar|avali\w*|estrelas|${nota}|feedback|rating|ratings|review|reviews|stars?)\b`;
export const RATING = new RegExp(ratingWords(String.raw`nota(?!\s+fiscal)`));
/**
 * RATING without the "nota fiscal" exclusion, over the whole view: a sentence's rating word is
 * also one of the view (sentences end at ".!?\n", which are not word characters, so \b is the
 * same), though "nota" may be followed by "fiscal" in the next sentence.
 */
export const ANY_RATING = new RegExp(ratingWords('nota'));
const POSITIVE_OR_CHANGE =
  /\b(?:buena|buenas|bueno|positiva|positivo|positivas|excelente|excelentes|maxima|maximo|boa|boas|otima|otimo|positive|good|great|excellent|top|perfecta|perfeita|(?:5|cinco|five)\s*-?\s*(?:estrellas|estrelas|stars?)|nota\s+(?:10|dez|5|cinco)|(?:10|diez|dez)\s+(?:puntos|pontos|points)|cambi\w*|modific\w*|borr\w*|elimin\w*|saca\w*|quit\w*|retir\w*|mud\w*|alter\w*|apag\w*|remov\w*|change|delete|remove|edit|update)\b/;
const EXCHANGE = new RegExp(
  [
    String.raw`\ba\s+cambio\b`,
    String.raw`\bem\s+troca\b`,
    String.raw`\bin\s+exchange\b`,
    String.raw`\ben\s+compensacion\b`,
    String.raw`\bfor\s+a\s+(?:discount|refund|coupon|gift|voucher)\b`,
    String.raw`\b(?:por|para|pra)\s+(?:un|una|um|uma)\s+(?:descuento|desconto|cupon|cupom|regalo|brinde|reembolso|reintegro|bonificacion)\b`,
    String.raw`\b(?:y|e)\s+(?:(?:yo|eu|nosotros|nos)\s+)?(?:te\s+|le\s+|lhe\s+)?(?:devuelvo|devolvemos|reintegro|reintegramos|regalo|regalamos|doy|damos|bonifico|bonificamos|devolvo|reembolso|reembolsamos|dou|damos)\b`,
    String.raw`\bte\s+(?:devuelvo|devolvemos|reintegro|reintegramos|regalo|regalamos|reembolso|bonifico|bonificamos|dou|devolvo|hago\s+un\s+descuento|hacemos\s+un\s+descuento)\b`,
    String.raw`\bque\s+(?:eu\s+)?(?:te|lhe)\s+(?:dou|devolvo|reembolso|mando)\b`,
    String.raw`\b(?:i'?ll|we'?ll|i\s+will|we\s+will)\s+(?:refund|send|give|return|reimburse|pay)\b`,
    String.raw`\bget\s+(?:a\s+)?(?:\d+\s*%\s*off|discount|refund|coupon|gift|voucher)\b`,
    String.raw`\b\d+\s*%\s*(?:off|de\s+descuento|de\s+desconto)\b`,
  ].join('|'),
);

const EXCHANGE_AT_START = new RegExp(String.raw`^(?:${EXCHANGE.source})`);

/**
 * A sentence (of the `folded` view) with a rating word, a positive or change word, and an exchange
 * in the same sentence or opening the next one ("Dejame 5 estrellas. Te devuelvo $ 500.").
 */
export const ratingExchangeRule: Rule = {
  id: 'claim.rating-exchange',
  reason: REASON,
  message: 'Looks like offering something in exchange for a good rating: such messages are rejected.',
  find(text) {
    if (!ANY_RATING.test(text.folded)) return [];
    const sentences = [...text.folded.matchAll(/[^.!?\n]+/g)];
    return sentences.flatMap((s, i) => {
      const sentence = s[0];
      if (!RATING.test(sentence) || !POSITIVE_OR_CHANGE.test(sentence)) return [];
      const next = (sentences[i + 1]?.[0] ?? '').trimStart();
      const nextOpensWithExchange = EXCHANGE_AT_START.test(next);
      if (!EXCHANGE.test(sentence) && !nextOpensWithExchange) return [];
      const lead = sentence.length - sentence.trimStart().length;
      const start = s.index + lead;
      return [finding(ratingExchangeRule, text, 'folded', start, s.index + sentence.trimEnd().length)];
    });
  },
};

export const claimEvasionRules: readonly Rule[] = [withdrawClaimRule, discourageClaimRule, ratingExchangeRule];
