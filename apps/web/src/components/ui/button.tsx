import { LoaderCircleIcon } from "lucide-react";
import { Slot } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "#web/lib/cn";

const variants = {
  primary: "bg-accent text-accent-foreground shadow-sm hover:bg-accent-strong",
  secondary: "border border-line bg-surface text-ink shadow-xs hover:bg-zinc-50",
  ghost: "text-ink hover:bg-zinc-100",
  link: "text-accent underline-offset-4 hover:underline",
} as const;

const sizes = {
  sm: "h-8 gap-1.5 px-3 text-sm",
  md: "h-10 gap-2 px-4 text-sm",
  lg: "h-11 gap-2 px-5 text-base",
  icon: "size-10",
} as const;

export interface ButtonProps extends ComponentProps<"button"> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  /** Renders the single child (e.g. a router Link) with the button's look instead of a <button>. */
  asChild?: boolean;
  /**
   * An action under way: a spinner takes the place of the button's icons and the button is disabled and
   * marked busy. The label stays, or the caller swaps it for the one the spec names ("Validating...").
   * Not for asChild, whose single child is a link.
   */
  loading?: boolean;
}

export function buttonClasses(variant: keyof typeof variants = "primary", size: keyof typeof sizes = "md") {
  return cn(
    "inline-flex shrink-0 items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors",
    "disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50",
    "[&_svg]:size-4 [&_svg]:shrink-0",
    variants[variant],
    sizes[size],
  );
}

export function Button({
  variant,
  size,
  asChild,
  loading = false,
  disabled,
  className,
  type,
  children,
  ...props
}: ButtonProps) {
  if (asChild) {
    return (
      <Slot.Root className={cn(buttonClasses(variant, size), className)} {...props}>
        {children}
      </Slot.Root>
    );
  }
  return (
    <button
      type={type ?? "button"}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={cn(buttonClasses(variant, size), loading && "[&>svg:not([data-spinner])]:hidden", className)}
      {...props}
    >
      {loading ? <LoaderCircleIcon data-spinner="" aria-hidden="true" className="animate-spin" /> : null}
      {children}
    </button>
  );
}
