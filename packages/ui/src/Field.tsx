import {
  cloneElement,
  isValidElement,
  useId,
  type InputHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { cn } from './cn.js';

const control =
  'block w-full rounded-md border border-olive-500 bg-ink-900 px-3 py-2 text-khaki-50 placeholder:text-khaki-400 ' +
  'focus-visible:border-brass-400 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brass-300 ' +
  'aria-invalid:border-alert-400 disabled:opacity-60';

export function Input({ className, ...rest }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(control, 'h-11', className)} {...rest} />;
}

export function Textarea({ className, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cn(control, 'min-h-28', className)} {...rest} />;
}

interface ControlProps {
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  required?: boolean;
}

export interface FieldProps {
  label: ReactNode;
  /** A single control (Input, Textarea, select...); it receives id, aria-invalid and aria-describedby. */
  children: ReactElement<ControlProps>;
  hint?: ReactNode;
  /** Shown under the control, announced, and tied to it by aria-describedby. */
  error?: ReactNode;
  required?: boolean;
  className?: string;
}

/** A labelled form control with an optional hint and an error tied to the control. */
export function Field({ label, children, hint, error, required, className }: FieldProps) {
  const generated = useId();
  const id = (isValidElement(children) && children.props.id) || generated;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-semibold text-khaki-100">
        {label}
        {required ? (
          <span aria-hidden="true" className="ml-0.5 text-brass-400">
            *
          </span>
        ) : null}
      </label>
      {cloneElement(children, {
        id,
        required: required ?? children.props.required,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
      })}
      {hint ? (
        <p id={hintId} className="text-xs text-khaki-300">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-alert-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Select({ className, ...rest }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={cn(control, 'h-11', className)} {...rest} />;
}

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  hint?: ReactNode;
}

/** A checkbox with its label beside it (the whole row is clickable). */
export function Checkbox({ label, hint, className, id, ...rest }: CheckboxProps) {
  const generated = useId();
  const boxId = id ?? generated;
  return (
    <div className={cn('flex items-start gap-3', className)}>
      <input
        id={boxId}
        type="checkbox"
        className="mt-0.5 size-5 shrink-0 accent-brass-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300"
        aria-describedby={hint ? `${boxId}-hint` : undefined}
        {...rest}
      />
      <div className="flex flex-col">
        <label htmlFor={boxId} className="text-sm text-khaki-100">
          {label}
        </label>
        {hint ? (
          <p id={`${boxId}-hint`} className="text-xs text-khaki-300">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
