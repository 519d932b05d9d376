import type { ComponentPropsWithRef } from 'react';
import './controls.css';

export type ButtonVariant = 'primary' | 'secondary' | 'quiet' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

/**
 * The app's button: one look on the tokens for every screen (renderer/ui/controls.css). A plain
 * <button> underneath, `type="button"` unless told (a stray submit is the usual bug), every native
 * attribute passed through.
 */
export function Button({
  variant = 'secondary',
  size = 'md',
  type = 'button',
  className,
  ...rest
}: ComponentPropsWithRef<'button'> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <button type={type} className={className ? `ui-button ${className}` : 'ui-button'} data-variant={variant} data-size={size} {...rest} />;
}
