import type { UserDevice } from '@vitalwatch/shared';
import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { CheckCircleIcon, ChevronDownIcon, PhoneIcon } from '@/components/icons.tsx';
import { useDismiss } from '@/components/use-dismiss.ts';

interface DevicePickerProps {
  devices: readonly UserDevice[];
  selectedId: string | null;
  onSelect: (deviceId: string) => void;
}

/**
 * The overview's device dropdown (a select-only listbox): the button shows the selected device's
 * name or 'Select Device'; arrows, Home and End move, Enter or Space chooses, Escape, Tab and a
 * click outside close; the selected device is marked.
 */
export function DevicePicker({ devices, selectedId, onSelect }: DevicePickerProps) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const selected = devices.find((d) => d._id === selectedId);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(root, open, close);

  useEffect(() => {
    if (open) list.current?.focus();
  }, [open]);

  const openAt = (index: number) => {
    setActive(Math.max(0, Math.min(devices.length - 1, index)));
    setOpen(true);
  };
  const selectedIndex = Math.max(
    0,
    devices.findIndex((d) => d._id === selectedId),
  );

  const choose = (index: number) => {
    const device = devices[index];
    if (device) onSelect(device._id);
    setOpen(false);
    button.current?.focus();
  };

  const onButtonKey = (event: KeyboardEvent) => {
    if (['ArrowDown', 'ArrowUp', 'Enter', ' '].includes(event.key)) {
      event.preventDefault();
      openAt(event.key === 'ArrowUp' ? selectedIndex - 1 : selectedIndex);
    }
  };

  const onListKey = (event: KeyboardEvent) => {
    const last = devices.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: Math.min(last, active + 1),
      ArrowUp: Math.max(0, active - 1),
      Home: 0,
      End: last,
    };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      setActive(move);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      choose(active);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <div ref={root} className="relative w-full sm:w-72">
      <span id={`${id}-label`} className="sr-only">
        Device
      </span>
      <button
        ref={button}
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        aria-labelledby={`${id}-label ${id}-value`}
        onClick={() => (open ? setOpen(false) : openAt(selectedIndex))}
        onKeyDown={onButtonKey}
        className="flex w-full items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-left text-sm font-medium text-slate-900 shadow-sm hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
      >
        <PhoneIcon className="size-4 shrink-0 text-teal-700 dark:text-teal-400" />
        <span id={`${id}-value`} className="min-w-0 flex-1 truncate">
          {selected?.deviceName ?? 'Select Device'}
        </span>
        <ChevronDownIcon className={`size-4 shrink-0 transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      {open && (
        <div
          ref={list}
          id={`${id}-list`}
          role="listbox"
          tabIndex={-1}
          aria-labelledby={`${id}-label`}
          aria-activedescendant={devices[active] ? `${id}-option-${active}` : undefined}
          onKeyDown={onListKey}
          className="absolute right-0 z-30 mt-2 max-h-72 w-full overflow-y-auto rounded-xl border border-slate-200 bg-white py-1 shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-900"
        >
          {devices.map((device, index) => {
            const isSelected = device._id === selectedId;
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox handles the keyboard (aria-activedescendant).
              <div
                key={device._id}
                tabIndex={-1}
                id={`${id}-option-${index}`}
                role="option"
                aria-selected={isSelected}
                onClick={() => choose(index)}
                onMouseMove={() => setActive(index)}
                className={`flex cursor-pointer items-center gap-2 px-3 py-2 text-sm ${
                  index === active ? 'bg-slate-100 dark:bg-slate-800' : ''
                } ${isSelected ? 'font-semibold text-teal-800 dark:text-teal-300' : 'text-slate-700 dark:text-slate-200'}`}
              >
                <span className="min-w-0 flex-1 truncate">{device.deviceName}</span>
                {isSelected && <CheckCircleIcon className="size-4 shrink-0" />}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
