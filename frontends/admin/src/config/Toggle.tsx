// A labelled on/off switch (Radix Switch, as in the admin settings modal): the "show" toggles of the
// contact details and a tax permit's Active flag.
import * as Switch from '@radix-ui/react-switch';
import { useId } from 'react';

export function Toggle({
  label,
  checked,
  onChange,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-3">
      <Switch.Root
        id={id}
        checked={checked}
        onCheckedChange={onChange}
        className="relative h-6 w-11 shrink-0 rounded-full border border-olive-500 bg-ink-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300 data-[state=checked]:bg-brass-400"
      >
        <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-khaki-100 transition-transform data-[state=checked]:translate-x-5 motion-reduce:transition-none" />
      </Switch.Root>
      <label htmlFor={id} className="text-sm font-semibold text-khaki-100">
        {label}
        {hint ? <span className="block text-xs font-normal text-khaki-300">{hint}</span> : null}
      </label>
    </div>
  );
}
