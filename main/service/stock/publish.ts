import { z } from 'zod';
import { stringListColumn, parseColumn } from '../../db/json-columns.js';
import type { GroupCommit } from '../../db/group-commit.js';
import type { StockRepo } from '../../db/repos/stock.js';
import type { UsersRepo } from '../../db/repos/users.js';
import type { Principal } from '../auth/auth.js';
import { ServiceError, badRequest, forbidden, fieldsInvalid, fieldsRequired } from '../errors.js';
import { parseWith, requireObject } from '../params.js';
import { ORDINARY_ITEM_ATTRIBUTES, REQUIRED, type ItemView, type ItemsService, itemBody, toItemView } from './items.js';
import { MAX_QUANTITY } from './locations.js';

/** Fields of the ordinary flow: the item fields of 2.4 with `available_quantity` instead of stock per store. */
const PUBLISH_REQUIRED = [...REQUIRED, 'available_quantity'] as const;
const PUBLISH_KNOWN = new Set<string>([...PUBLISH_REQUIRED, 'channels', ...ORDINARY_ITEM_ATTRIBUTES]);

const publishBody = itemBody.omit({ stock_locations: true }).extend({
  available_quantity: z
    .number({ error: 'expected an integer quantity' })
    .int('expected an integer quantity')
    .min(0, 'quantity cannot be negative')
    .max(MAX_QUANTITY, `quantity cannot exceed ${MAX_QUANTITY}`),
});

export const publishErrors = {
  /** A multi-warehouse seller who sent no `available_quantity`: the ordinary flow is not theirs. */
  useMultiwarehouse: () => badRequest('Sellers with warehouse_management list items through POST /items/multiwarehouse with stock_locations'),
  notASeller: (userId: number) => forbidden(`User ${userId} cannot list items: the account is not a seller's`),
};

/**
 * The ordinary item-publishing flow, POST /items (SPEC 4.3 rule 1 and 7.4 refer to it). The item
 * gets a new user product whose stock is one `selling_address` location holding
 * `available_quantity` (logistic type cross_docking, no local delivery, so the stock stays
 * editable through 4.6). Checked in this order:
 * 1. the seller has `warehouse_management`: 400 "The fields [available_quantity] are invalid for
 *    requested call" when the body has `available_quantity` (SPEC 7.1), otherwise 400 pointing at
 *    POST /items/multiwarehouse;
 * 2. unknown fields: "The fields [...] are invalid for requested call";
 * 3. missing required fields (title, category_id, price, currency_id, listing_type_id,
 *    available_quantity): "The fields [...] are required for requested call";
 * 4. field types and ranges (`available_quantity` an integer 0..1,000,000);
 * 5. `site_id`, when sent, is the seller's site;
 * 6. the listing checks registered on the items service (the official-store rules of 7.4).
 */
/** Account tags that make a user a seller who may list (SPEC 2.1's tags; a buyer has 'normal' alone). */
export const SELLER_TAGS: ReadonlySet<string> = new Set(['user_product_seller', 'brand', 'large_seller', 'warehouse_management']);

export function publishService(writes: GroupCommit, repo: StockRepo, users: UsersRepo, items: ItemsService) {
  return {
    async create(principal: Principal, body: unknown): Promise<ItemView> {
      const seller = users.byId(principal.userId);
      if (!seller) throw new ServiceError(404, 'not_found', `The user '${principal.userId}' was not found`);
      const tags = parseColumn(stringListColumn, seller.tags, 'users.tags');
      // Only a seller's account lists: a buyer's ('normal' alone) is refused before the body is read.
      if (!tags.some((t) => SELLER_TAGS.has(t))) throw publishErrors.notASeller(principal.userId);
      const obj = requireObject(body);
      if (tags.includes('warehouse_management')) {
        if ('available_quantity' in obj) throw fieldsInvalid(['available_quantity']);
        throw publishErrors.useMultiwarehouse();
      }
      const unknown = Object.keys(obj).filter((k) => !PUBLISH_KNOWN.has(k));
      if (unknown.length) throw fieldsInvalid(unknown);
      const missing = PUBLISH_REQUIRED.filter((k) => obj[k] === undefined || obj[k] === null);
      if (missing.length) throw fieldsRequired([...missing]);
      const input = parseWith(publishBody, obj, 'body');
      if (input.site_id !== undefined && input.site_id !== seller.site_id) {
        throw badRequest(`Invalid site_id: the seller operates on site ${seller.site_id}`);
      }

      // One group-committed write (its own savepoint): a failing check rolls back nothing but itself.
      return writes.run(() => {
        items.runListingChecks(seller, input.official_store_id);
        const id = items.insertListing(seller, input, obj, [{ type: 'selling_address', quantity: input.available_quantity }], input.available_quantity);
        return toItemView(repo.itemById(id)!);
      });
    },
  };
}
export type PublishService = ReturnType<typeof publishService>;
