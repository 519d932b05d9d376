/**
 * SOCIAL_NETWORK_LINK: links to social networks and messengers, and invitations to continue the
 * conversation there.
 *
 * Detects
 * - links to instagram.com, instagr.am, facebook.com, fb.com, fb.me, m.me, messenger.com,
 *   tiktok.com, twitter.com, x.com, threads.net, wa.me, whatsapp.com (api., chat., web.),
 *   t.me, telegram.me, linkedin.com, snapchat.com, with or without scheme, www. or a subdomain;
 * - "@handle" when the text speaks of a social network or of following/profile ("seguime en
 *   insta @tienda.x", "me segue no @loja_x", "follow us @shop");
 * - "instagram: tienda.x", "IG: tiendax", "face: Tienda X" (network name, colon, profile);
 * - invitations to talk on a network: "escribime por WhatsApp", "hablame al insta",
 *   "me chama no zap", "fala comigo no Instagram", "text me on WhatsApp", "add me on Facebook",
 *   "pasame tu WhatsApp".
 *
 * False positives avoided
 * - e-mail addresses are not handles ("ana@x.com" is neither a handle nor a link to x.com), and
 *   domains merely ending like a network are not it ("inbox.com", "netflix.com", "fox.com");
 * - a bare "@name" without any network or following context ("@Juan gracias") passes;
 * - mentioning a network without inviting there passes ("No atendemos por WhatsApp, solo por acá";
 *   "o produto não tem Instagram");
 * - youtube.com links are not flagged: sellers send product and installation videos.
 */
import { URL_REST, alternation, domainTails, patternRule, type Rule } from './rule.js';

const REASON = 'SOCIAL_NETWORK_LINK' as const;

const DOMAINS = [
  'instagram.com',
  'instagr.am',
  'facebook.com',
  'fb.com',
  'fb.me',
  'fb.watch',
  'm.me',
  'messenger.com',
  'tiktok.com',
  'twitter.com',
  'x.com',
  'threads.net',
  'wa.me',
  'whatsapp.com',
  't.me',
  'telegram.me',
  'telegram.dog',
  'linkedin.com',
  'snapchat.com',
];

export const socialLinkRule = patternRule({
  id: 'social.link',
  reason: REASON,
  message: 'Looks like a link to a social network or messenger: messages inviting to leave the platform are rejected.',
  pattern: new RegExp(String.raw`(?<![\w@.-])(?:https?:\/\/)?(?:[a-z0-9-]+\.)*?(?:${alternation(DOMAINS)})(?![\w-]|\.[a-z])(?:\/${URL_REST})?`),
  requires: new RegExp(alternation(domainTails(DOMAINS))),
});

/** Words that make an "@name" a social network handle. */
const SOCIAL_CONTEXT = new RegExp(
  String.raw`\b(?:instagram|insta|ig|facebook|face|fb|tiktok|tik tok|twitter|threads|telegram|snapchat|snap|redes|rede|redes sociais|social|segui|seguime|seguinos|seguinos|sigueme|siguenos|siganos|sigan|seguir|segue|siga|sigam|me segue|nos segue|follow|followers|seguidores|perfil|profile|cuenta|conta|usuario|user|dm|md|direct|privado|inbox)\b`,
);

export const socialHandleRule = patternRule({
  id: 'social.handle',
  reason: REASON,
  message: 'Looks like a social network user ("@name"): messages inviting to leave the platform are rejected.',
  pattern: /(?<![\w@.])(?<hit>@[a-z_][a-z0-9._]{1,29})(?<![.])(?![\w@])/,
  requires: /@/,
  accept: (m, view) => {
    const handle = m.groups?.['hit'] ?? '';
    if (/\.(?:com|net|org|ar|br|io)$/.test(handle)) return false;
    return SOCIAL_CONTEXT.test(view);
  },
});

const NETWORKS = [
  'instagram',
  'insta',
  'ig',
  'facebook',
  'face',
  'fb',
  'messenger',
  'tiktok',
  'twitter',
  'telegram',
  'snapchat',
  'whatsapp',
  'whats app',
  'whatsap',
  'whats',
  'wpp',
  'wsp',
  'wasap',
  'guasap',
  'zap',
  'zapzap',
  'signal',
  'threads',
];

export const socialProfileRule = patternRule({
  id: 'social.profile',
  reason: REASON,
  message: 'Looks like a social network profile: messages inviting to leave the platform are rejected.',
  pattern: new RegExp(String.raw`\b(?:${alternation(NETWORKS)})\s*[:=]\s*@?[a-z0-9._]{3,30}`),
  requires: /[:=]/,
  accept: (m) => !/[:=]\s*\d+$/.test(m[0]),
});

const INVITING_VERBS = [
  // es
  'escribime',
  'escribinos',
  'escribeme',
  'escribenos',
  'escribir',
  'hablame',
  'hablanos',
  'hablemos',
  'charlemos',
  'contactame',
  'contactanos',
  'contactate',
  'mandame',
  'mandanos',
  'enviame',
  'envianos',
  'agregame',
  'agreganos',
  'buscame',
  'buscanos',
  'seguime',
  'seguinos',
  'sigueme',
  'siguenos',
  'consultame',
  'consultanos',
  'pasame',
  'te escribo',
  'te hablo',
  'te agrego',
  'te contacto',
  'seguimos',
  'sigamos',
  'estamos',
  'encontranos',
  'encontrame',
  // pt
  'me chama',
  'me chame',
  'nos chama',
  'nos chame',
  'chama',
  'chame',
  'me manda',
  'me mande',
  'manda',
  'mande',
  'fala comigo',
  'fale comigo',
  'fala com a gente',
  'fale conosco',
  'me add',
  'me adiciona',
  'adiciona',
  'me segue',
  'nos segue',
  'segue a gente',
  'siga',
  'nos siga',
  'me siga',
  'entre em contato',
  'entra em contato',
  'vamos conversar',
  'te chamo',
  'te mando',
  'te adiciono',
  'me encontra',
  'nos encontra',
  'me procura',
  'nos procura',
  // en
  'message me',
  'message us',
  'text me',
  'text us',
  'dm me',
  'dm us',
  'contact me',
  'contact us',
  'reach me',
  'reach us',
  'write me',
  'write to me',
  'write to us',
  'add me',
  'add us',
  'follow me',
  'follow us',
  'find me',
  'find us',
  'chat with me',
  'chat with us',
  'talk to me',
  'hit me up',
  "let's talk",
  "let's chat",
  'lets talk',
];
const CONNECTORS = [
  'por',
  'en',
  'al',
  'a',
  'no',
  'na',
  'pelo',
  'pela',
  'on',
  'via',
  'by',
  'in',
  'at',
  'through',
  'mi',
  'meu',
  'minha',
  'my',
  'nuestro',
  'nosso',
  'our',
  'el',
  'la',
  'o',
  'um',
  'un',
  'me',
  'nos',
  'us',
  'tu',
  'su',
  'seu',
  'sua',
  'your',
];

export const socialInvitationRule = patternRule({
  id: 'social.invitation',
  reason: REASON,
  message: 'Looks like an invitation to continue on a social network or messenger: such messages are rejected.',
  pattern: new RegExp(String.raw`\b(?:${alternation(INVITING_VERBS)})(?:\s+(?:${alternation(CONNECTORS)}))*\s+(?:${alternation(NETWORKS)})\b`),
});

export const socialNetworkRules: readonly Rule[] = [socialLinkRule, socialProfileRule, socialHandleRule, socialInvitationRule];
