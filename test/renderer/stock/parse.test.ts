import { describe, expect, it } from 'vitest';
import { afterEdit, parseEdit, startsEdit } from '../../../renderer/stock/parse.js';

describe('what a person types into a stock cell', () => {
  it('reads a bare number as a count and a signed number as an adjustment', () => {
    expect(parseEdit('40')).toEqual({ kind: 'count', quantity: 40 });
    expect(parseEdit(' 0 ')).toEqual({ kind: 'count', quantity: 0 });
    expect(parseEdit('+12')).toEqual({ kind: 'adjust', delta: 12 });
    expect(parseEdit('-3')).toEqual({ kind: 'adjust', delta: -3 });
    expect(parseEdit('− 3')).toEqual({ kind: 'adjust', delta: -3 });
    expect(parseEdit('+ 5')).toEqual({ kind: 'adjust', delta: 5 });
  });

  it('takes thousands separators but not decimals', () => {
    expect(parseEdit('1.200')).toEqual({ kind: 'count', quantity: 1200 });
    expect(parseEdit('1,200')).toEqual({ kind: 'count', quantity: 1200 });
    expect(parseEdit('+1 000')).toEqual({ kind: 'adjust', delta: 1000 });
    expect(parseEdit('1.5')).toEqual({ kind: 'error', reason: 'bad' });
    expect(parseEdit('12,50')).toEqual({ kind: 'error', reason: 'bad' });
    expect(parseEdit('1.200,5')).toEqual({ kind: 'error', reason: 'bad' });
  });

  it('refuses what is not a number, an adjustment of zero, and out-of-range values', () => {
    expect(parseEdit('')).toEqual({ kind: 'error', reason: 'empty' });
    expect(parseEdit('   ')).toEqual({ kind: 'error', reason: 'empty' });
    for (const bad of ['abc', '+', '-', '--3', '+-3', '12+', '3e2', '0x10', '++1', '1 2']) expect(parseEdit(bad)).toEqual({ kind: 'error', reason: 'bad' });
    expect(parseEdit('+0')).toEqual({ kind: 'error', reason: 'zero' });
    expect(parseEdit('-0')).toEqual({ kind: 'error', reason: 'zero' });
    expect(parseEdit('1000001')).toEqual({ kind: 'error', reason: 'range' });
    expect(parseEdit('+1000001')).toEqual({ kind: 'error', reason: 'range' });
    expect(parseEdit('1000000')).toEqual({ kind: 'count', quantity: 1_000_000 });
  });

  it('applies an adjustment to what the cell shows, and a count replaces it', () => {
    expect(afterEdit(10, { kind: 'adjust', delta: -3 })).toBe(7);
    expect(afterEdit(10, { kind: 'count', quantity: 4 })).toBe(4);
  });

  it('starts an edit on digits and signs only', () => {
    expect(['0', '9', '+', '-'].every(startsEdit)).toBe(true);
    expect(['a', 'Enter', ' ', '.', 'F2'].some(startsEdit)).toBe(false);
  });
});
