import { CheckIcon, ChevronDownIcon } from "lucide-react";
import { Select as SelectPrimitive } from "radix-ui";
import { useId } from "react";
import { cn } from "../../lib/cn";

export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

interface SelectProps<T extends string> {
  label: string;
  value: T;
  options: ReadonlyArray<SelectOption<T>>;
  onValueChange: (value: T) => void;
  className?: string;
}

/** A labelled single-choice select (radix: keyboard navigation, typeahead, screen-reader semantics). */
export function Select<T extends string>({
  label,
  value,
  options,
  onValueChange,
  className,
}: SelectProps<T>) {
  const labelId = useId();
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <span id={labelId} className="text-xs font-medium text-muted">
        {label}
      </span>
      <SelectPrimitive.Root value={value} onValueChange={(next) => onValueChange(next as T)}>
        <SelectPrimitive.Trigger
          aria-labelledby={labelId}
          className={cn(
            "inline-flex h-10 w-full items-center justify-between gap-2 rounded-md border border-line bg-surface px-3",
            "text-sm text-ink shadow-xs hover:bg-zinc-50 data-[state=open]:border-accent",
          )}
        >
          <SelectPrimitive.Value />
          <SelectPrimitive.Icon>
            <ChevronDownIcon className="size-4 text-muted" />
          </SelectPrimitive.Icon>
        </SelectPrimitive.Trigger>
        <SelectPrimitive.Portal>
          <SelectPrimitive.Content
            position="popper"
            sideOffset={4}
            className={cn(
              "z-50 max-h-(--radix-select-content-available-height) min-w-(--radix-select-trigger-width)",
              "overflow-hidden rounded-md border border-line bg-surface p-1 shadow-lg data-[state=open]:animate-fade-in",
            )}
          >
            <SelectPrimitive.Viewport>
              {options.map((option) => (
                <SelectPrimitive.Item
                  key={option.value}
                  value={option.value}
                  className={cn(
                    "relative flex cursor-default items-center rounded-sm py-2 pr-8 pl-2.5 text-sm text-ink outline-none select-none",
                    "data-highlighted:bg-accent-soft data-highlighted:text-accent-strong",
                  )}
                >
                  <SelectPrimitive.ItemText>{option.label}</SelectPrimitive.ItemText>
                  <SelectPrimitive.ItemIndicator className="absolute right-2 inline-flex">
                    <CheckIcon className="size-4" />
                  </SelectPrimitive.ItemIndicator>
                </SelectPrimitive.Item>
              ))}
            </SelectPrimitive.Viewport>
          </SelectPrimitive.Content>
        </SelectPrimitive.Portal>
      </SelectPrimitive.Root>
    </div>
  );
}
