// @vitest-environment jsdom
/** renderer/ui/Button.tsx and Field.tsx: what a person and assistive technology get from them. */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Button } from '../../../renderer/ui/Button.js';
import { Field } from '../../../renderer/ui/Field.js';

afterEach(cleanup);

const described = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);

describe('Button', () => {
  it('is a plain button that does not submit its form unless told, with its variant and size', () => {
    let submitted = 0;
    let clicked = 0;
    render(
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submitted++;
        }}
      >
        <Button onClick={() => clicked++}>Back</Button>
        <Button type="submit" variant="primary" size="lg">
          Save
        </Button>
      </form>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect({ clicked, submitted }).toEqual({ clicked: 1, submitted: 0 });
    const save = screen.getByRole('button', { name: 'Save' });
    fireEvent.click(save);
    expect(submitted).toBe(1);
    expect([save.className, save.dataset.variant, save.dataset.size]).toEqual(['ui-button', 'primary', 'lg']);
    expect(screen.getByRole('button', { name: 'Back' }).dataset.variant).toBe('secondary');
  });
});

describe('Field', () => {
  it('labels its control and describes it by the hint', () => {
    render(
      <Field label="Marketplace address" hint="Starts with https://">
        {(c) => <input {...c} type="text" />}
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Marketplace address' });
    expect(described(input)).toEqual(['Starts with https://']);
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('says the error in the hint’s place and marks the control invalid', () => {
    render(
      <Field label="Application id" hint="A number" error="Enter a whole number greater than 0.">
        {(c) => <input {...c} type="text" />}
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Application id' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(described(input)).toEqual(['⚠ Enter a whole number greater than 0.']);
    expect(screen.queryByText('A number')).toBeNull();
  });

  it('keeps a native select, labelled, with nothing to describe when there is no hint', () => {
    render(
      <Field label="Language">
        {(c) => (
          <select {...c} defaultValue="es">
            <option value="en">English</option>
            <option value="es">Español</option>
          </select>
        )}
      </Field>,
    );
    const select = screen.getByRole('combobox', { name: 'Language' });
    expect(select.tagName).toBe('SELECT');
    expect(select.hasAttribute('aria-describedby')).toBe(false);
  });
});
