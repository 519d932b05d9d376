/** The stock grid's sizes in pixels, and the id of a cell's element (the focus target). */
export const ROW_HEIGHT = 44;
export const HEADER_HEIGHT = 52;
export const PRODUCT_WIDTH = 300;
export const COLUMN_WIDTH = 150;
export const TOTAL_WIDTH = 96;

export const cellId = (row: number, col: number) => `stock-cell-${row}-${col}`;
