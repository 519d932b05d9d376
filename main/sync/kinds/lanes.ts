/** The lanes of the outbox (lanes.ts): one per user product for stock, one per conversation for messages. */
export const stockLane = (userProductId: string) => `up:${userProductId}`;
export const packLane = (packId: number) => `pack:${packId}`;
