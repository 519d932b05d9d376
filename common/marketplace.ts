/**
 * What the app knows of the marketplace before any setting: the application registered for it,
 * the API's address, and the marketplace's sites (one per country). The API has no endpoint
 * listing its sites (SPEC.md), so the list lives here, shared by the connect flow (renderer) and
 * the core (which checks a chosen site against it). Advanced settings may change the address and
 * the application id; the site list is the same everywhere.
 */

/** The application id the app signs in with (the marketplace's registered "Stockroom Desktop"). */
export const BUILT_IN_APPLICATION_ID = 5503910054141466;

/** The marketplace API every site shares; its sign-in page is `<address>/authorization`. */
export const BUILT_IN_MARKETPLACE_URL = 'https://api.mercadolibre.com';

export interface Site {
  /** The marketplace's site id (`site_id` of items, orders, users). */
  id: string;
  /** ISO 3166 country code (`country_id` of a user). */
  country: string;
  /** The country's name in its own language (the list is shown the same in every app language). */
  name: string;
}

export const SITES: readonly Site[] = [
  { id: 'MLA', country: 'AR', name: 'Argentina' },
  { id: 'MLB', country: 'BR', name: 'Brasil' },
  { id: 'MLC', country: 'CL', name: 'Chile' },
  { id: 'MCO', country: 'CO', name: 'Colombia' },
  { id: 'MLM', country: 'MX', name: 'México' },
  { id: 'MPE', country: 'PE', name: 'Perú' },
  { id: 'MLU', country: 'UY', name: 'Uruguay' },
];

export const siteById = (id: string | null | undefined): Site | undefined => SITES.find((s) => s.id === id);

/** A site id of the list (the contract's schema refuses others). */
export const SITE_IDS = SITES.map((s) => s.id) as [string, ...string[]];
