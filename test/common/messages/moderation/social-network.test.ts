import { describe, it } from 'vitest';
import { expectClean, expectNoFindingOf, expectRejected } from './helpers.js';

describe('SOCIAL_NETWORK_LINK: links', () => {
  it.each([
    ['Mirá más fotos en instagram.com/tienda.x', 'instagram.com/tienda.x'],
    ['https://www.instagram.com/p/Cx12ab/', 'https://www.instagram.com/p/Cx12ab/'],
    ['nos encontrás en facebook.com/TiendaX', 'facebook.com/TiendaX'],
    ['m.facebook.com/tiendax', 'm.facebook.com/tiendax'],
    ['fb.com/tiendax', 'fb.com/tiendax'],
    ['segue o link: https://wa.me/message/ABCDEF', 'https://wa.me/message/ABCDEF'],
    ['Mirá instagram.com/tienda.', 'instagram.com/tienda'],
    ['api.whatsapp.com/send?phone=123', 'api.whatsapp.com/send?phone=123'],
    ['chat.whatsapp.com/AbCdEf', 'chat.whatsapp.com/AbCdEf'],
    ['follow us: x.com/shop', 'x.com/shop'],
    ['twitter.com/shop', 'twitter.com/shop'],
    ['vm.tiktok.com/ZMabc/', 'vm.tiktok.com/ZMabc/'],
    ['t.me/tiendax', 't.me/tiendax'],
    ['m.me/tiendax', 'm.me/tiendax'],
    ['INSTAGRAM.COM/TIENDA', 'INSTAGRAM.COM/TIENDA'],
  ])('%s', (text, match) => expectRejected(text, 'SOCIAL_NETWORK_LINK', 'social.link', match));
});

describe('SOCIAL_NETWORK_LINK: handles, profiles and invitations', () => {
  it.each([
    ['seguime en insta @tienda.x', '@tienda.x'],
    ['me segue no @loja_x', '@loja_x'],
    ['follow us @shop_official for news', '@shop_official'],
    ['nuestro perfil es @TiendaX', '@TiendaX'],
  ])('handle: %s', (text, match) => expectRejected(text, 'SOCIAL_NETWORK_LINK', 'social.handle', match));

  it.each([
    ['IG: tiendax', 'IG: tiendax'],
    ['instagram: tienda.x', 'instagram: tienda.x'],
    ['Face: TiendaX', 'Face: TiendaX'],
  ])('profile: %s', (text, match) => expectRejected(text, 'SOCIAL_NETWORK_LINK', 'social.profile', match));

  it.each([
    ['escribime por WhatsApp', 'escribime por WhatsApp'],
    ['Hablame al insta y lo vemos', 'Hablame al insta'],
    ['Cualquier cosa mandame por wsp', 'mandame por wsp'],
    ['me chama no zap', 'me chama no zap'],
    ['fala comigo no Instagram', 'fala comigo no Instagram'],
    ['text me on WhatsApp', 'text me on WhatsApp'],
    ['add me on Facebook', 'add me on Facebook'],
    ['estamos en Instagram', 'estamos en Instagram'],
    ['Contactanos por Telegram', 'Contactanos por Telegram'],
  ])('invitation: %s', (text, match) => expectRejected(text, 'SOCIAL_NETWORK_LINK', 'social.invitation', match));
});

describe('SOCIAL_NETWORK_LINK: false positives avoided', () => {
  it.each([
    'No atendemos por WhatsApp, solo por acá',
    'o produto não tem Instagram',
    'We do not answer on Facebook, only here',
    '@Juan gracias por tu compra',
    'Visitá inbox.com o netflix.com',
    'fox.com y box.com no son redes',
    'Mirá el video de instalación en youtube.com/watch?v=abc',
    'Mi socio se llama Max, comprale tranquilo',
    'La caja trae 10 unidades',
    'Interface: USB-C, Surface: mate',
    'Remera red, talle M, @Juan te la guardo',
  ])('%s', (text) => expectClean(text));

  it('a wa.me link with a number is both; personal data ranks higher', () => {
    const text = 'segue o link: https://wa.me/5511987654321';
    expectRejected(text, 'PERSONAL_DATA', 'personal.whatsapp-number', '5511987654321');
    expectRejected(text, 'PERSONAL_DATA', 'social.link', 'https://wa.me/5511987654321');
  });

  it("asking for the buyer's WhatsApp is an invitation and a contact request; personal data ranks higher", () => {
    expectRejected('Pasame tu whatsapp', 'PERSONAL_DATA', 'social.invitation', 'Pasame tu whatsapp');
    expectRejected('Pasame tu whatsapp', 'PERSONAL_DATA', 'personal.contact-request', 'Pasame tu whatsapp');
  });

  it('an e-mail address is not a handle nor a link (it is personal data)', () => {
    expectNoFindingOf('seguime, mi mail es ana@x.com', 'SOCIAL_NETWORK_LINK');
    expectRejected('seguime, mi mail es ana@x.com', 'PERSONAL_DATA', 'personal.email', 'ana@x.com');
  });
});
