import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { cn } from './cn.js';
import { Spinner } from './Spinner.js';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

const base =
  'inline-flex items-center justify-center gap-2 rounded-md font-semibold uppercase tracking-wide transition-colors ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300 ' +
  'disabled:cursor-not-allowed disabled:opacity-50';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-brass-400 text-ink-950 hover:bg-brass-300 active:bg-brass-500',
  secondary: 'border border-khaki-400 text-khaki-100 hover:bg-olive-700 active:bg-olive-800',
  ghost: 'text-khaki-200 hover:bg-olive-800 hover:text-khaki-50',
  danger: 'bg-alert-600 text-khaki-50 hover:bg-alert-400 hover:text-ink-950',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-xs',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
};

/** The button look, for links that must look like buttons (react-router's Link lives in the apps). */
export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className?: string): string {
  return cn(base, variants[variant], sizes[size], className);
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner and this text while an action waits (e.g. "Authenticating..."). */
  loading?: boolean;
  loadingText?: ReactNode;
}

export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  loadingText,
  disabled,
  className,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClasses(variant, size, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <Spinner size="sm" label="Working" className="[&_svg]:text-current" /> : null}
      {loading && loadingText ? loadingText : children}
    </button>
  );
}
