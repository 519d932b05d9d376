// @vitest-environment jsdom
import { getConfig } from '@testing-library/react';
import { expect, it } from 'vitest';
import { DOM_WAIT_MS } from '../../support/dom-waits.js';

it("every component test waits on Testing Library's queries with the one generous default", () => {
  expect(getConfig().asyncUtilTimeout).toBe(DOM_WAIT_MS);
});
