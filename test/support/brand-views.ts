import type { BrandListEntryView } from '../../common/contract/contract.js';

/**
 * The demo marketplace's Aurora Deportes official store (main/fixtures/demo.json, id 4021) in the
 * list form the service answers (SPEC 2.7). No Node imports: the renderer's tests use it too.
 */
export const AURORA_ENTRY: BrandListEntryView = {
  site_id: 'MLA',
  official_store_id: 4021,
  name: 'Aurora Deportes',
  type: 'brand',
  relevance_position: 3,
  status: 'active',
  fantasy_name: 'Aurora',
  date_created: '2018-05-14T15:03:22Z',
  return_policy: null,
  landing_permalink: 'https://example.com/tienda/aurora',
  pictures: [
    { id: 901, name: 'logo', secure_url: 'https://example.com/img/aurora-logo.png', url: 'http://example.com/img/aurora-logo.png', size: '90x90' },
    { id: 902, name: 'background', secure_url: null, url: 'http://example.com/img/aurora-bg.jpg', size: '1200x300' },
  ],
  tags: ['TOP_BRAND'],
  categories_ids: ['MLA109027', 'MLA1276'],
  main_categories: [{ id: 'MLA1276' }],
  permalink: 'https://example.com/aurora',
  normalized_name: 'Aurora Deportes',
  last_updated: '2026-10-02T12:00:00Z',
};
