/**
 * LINK_SHORT_URL: links through URL shorteners, which hide where they lead.
 *
 * Detects links on bit.ly, bitly.com, tinyurl.com, tiny.cc, goo.gl, t.co, ow.ly, is.gd, v.gd,
 * cutt.ly, rebrand.ly, shorturl.at, buff.ly, rb.gy, t.ly, s.id, bl.ink, lnkd.in, adf.ly,
 * shorte.st, soo.gd, x.gd, tr.im, qrco.de, acortar.link, encurtador.com.br, abre.ai, with or
 * without scheme or "www.": with a scheme the domain alone is a link, without one a path must
 * follow ("bit.ly/3abc").
 *
 * False positives avoided
 * - naming a shortener without a link passes ("no usamos bit.ly");
 * - domains that merely end like a shortener do not match ("habit.ly", "art.co/abc", "kiss.id",
 *   "nimbit.ly"), nor e-mail addresses ("ana@t.co");
 * - goo.gl/maps links ARE flagged: a shortened map link is still a hidden destination.
 * Payment short links (mpago.la) are LINK_PAYMENT, messenger links (wa.me, t.me) SOCIAL_NETWORK_LINK.
 */
import { URL_REST, alternation, domainTails, patternRule, type Rule } from './rule.js';

/** The shortener domains the rule knows. */
export const SHORTENER_DOMAINS: readonly string[] = [
  'bit.ly',
  'bitly.com',
  'tinyurl.com',
  'tiny.cc',
  'goo.gl',
  't.co',
  'ow.ly',
  'is.gd',
  'v.gd',
  'cutt.ly',
  'rebrand.ly',
  'shorturl.at',
  'buff.ly',
  'rb.gy',
  't.ly',
  's.id',
  'bl.ink',
  'lnkd.in',
  'adf.ly',
  'shorte.st',
  'soo.gd',
  'x.gd',
  'tr.im',
  'qrco.de',
  'acortar.link',
  'encurtador.com.br',
  'abre.ai',
];

const DOMAINS = alternation(SHORTENER_DOMAINS);

export const shortUrlRule = patternRule({
  id: 'short-url.link',
  reason: 'LINK_SHORT_URL',
  message: 'Looks like a shortened link (bit.ly, tinyurl...): links that hide their destination are rejected.',
  view: 'lower',
  pattern: new RegExp(
    String.raw`(?<![\w@.-])(?:https?:\/\/(?:www\.)?(?:${DOMAINS})(?![\w-]|\.[a-z])(?:\/${URL_REST})?|(?:www\.)?(?:${DOMAINS})\/[\w-]${URL_REST})`,
  ),
  requires: new RegExp(alternation(domainTails(SHORTENER_DOMAINS))),
});

export const shortUrlRules: readonly Rule[] = [shortUrlRule];
