import {
  createContext,
  type HTMLAttributes,
  type TdHTMLAttributes,
  type ThHTMLAttributes,
  useContext,
} from "react";
import { cn } from "#web/lib/cn";

/** Whether the table around a row or cell turns into stacked rows when its frame is narrow. */
const StackedContext = createContext(false);

interface TableProps extends HTMLAttributes<HTMLTableElement> {
  /**
   * Below 42rem of frame width, each row becomes a block of its cells (each with its column's `label`) instead of
   * a row wider than the frame: nothing to scroll sideways on a phone or in a narrow panel.
   */
  stacked?: boolean;
}

/**
 * Wide tables scroll sideways inside their frame instead of breaking the page layout on phones, unless they
 * stack. The frame is a size container, so rows and cells can follow its width rather than the window's.
 */
export function Table({ className, stacked = false, ...props }: TableProps) {
  return (
    <div className="@container w-full overflow-x-auto rounded-md border border-line bg-surface">
      <StackedContext.Provider value={stacked}>
        <table
          className={cn("w-full border-collapse text-left text-sm", stacked && "@max-2xl:block", className)}
          {...props}
        />
      </StackedContext.Provider>
    </div>
  );
}

export function TableHeader({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  const stacked = useContext(StackedContext);
  return (
    <thead
      className={cn(
        "border-b border-line bg-zinc-50 text-xs text-muted uppercase",
        stacked && "@max-2xl:sr-only",
        className,
      )}
      {...props}
    />
  );
}

export function TableBody({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  const stacked = useContext(StackedContext);
  return <tbody className={cn("divide-y divide-line", stacked && "@max-2xl:block", className)} {...props} />;
}

export function TableRow({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  const stacked = useContext(StackedContext);
  return (
    <tr
      className={cn(
        "hover:bg-zinc-50/60",
        stacked && "@max-2xl:flex @max-2xl:flex-wrap @max-2xl:gap-x-6 @max-2xl:gap-y-3 @max-2xl:p-4",
        className,
      )}
      {...props}
    />
  );
}

export function TableHead({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={cn("px-4 py-3 font-medium tracking-wide", className)} {...props} />;
}

interface TableCellProps extends TdHTMLAttributes<HTMLTableCellElement> {
  /** The column's name, shown above the value when the table stacks (the header row is hidden then). */
  label?: string;
}

export function TableCell({ className, label, ...props }: TableCellProps) {
  const stacked = useContext(StackedContext);
  return (
    <td
      data-label={label}
      className={cn(
        "px-4 py-3 align-middle",
        stacked && "@max-2xl:block @max-2xl:min-w-0 @max-2xl:p-0",
        stacked &&
          label &&
          "@max-2xl:before:mb-1 @max-2xl:before:block @max-2xl:before:text-xs @max-2xl:before:font-medium @max-2xl:before:tracking-wide @max-2xl:before:text-muted @max-2xl:before:uppercase @max-2xl:before:content-[attr(data-label)]",
        className,
      )}
      {...props}
    />
  );
}
