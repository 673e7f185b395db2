import { Link, type LinkProps } from "@tanstack/react-router";
import { ChevronRightIcon } from "lucide-react";
import { Tabs as TabsPrimitive } from "radix-ui";
import { type ComponentProps, type ReactNode, useEffect, useRef, useState } from "react";
import { cn } from "#web/lib/cn";

const tabClasses = cn(
  "inline-flex h-10 items-center border-b-2 border-transparent px-1 text-sm font-medium whitespace-nowrap text-muted",
  "transition-colors hover:text-ink",
);
// The router marks the matched link with data-status="active"; a variant beats the base colours without class merging.
const routeTabClasses = "data-[status=active]:border-accent data-[status=active]:text-ink";

/** In-page tabs (panels switch without navigation). */
export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn("flex gap-6 overflow-x-auto border-b border-line", className)}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(tabClasses, "data-[state=active]:border-accent data-[state=active]:text-ink", className)}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return <TabsPrimitive.Content className={cn("pt-6", className)} {...props} />;
}

export interface TabLink {
  label: ReactNode;
  link: LinkProps;
}

/** Tabs that are routes: each tab is a link and the matched route is the selected tab. */
export function TabNav({ label, tabs, className }: { label: string; tabs: TabLink[]; className?: string }) {
  const navRef = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ before: false, after: false });

  // On a phone the tabs do not all fit: a fade at the clipped edge shows that the row scrolls.
  useEffect(() => {
    const nav = navRef.current;
    if (!nav) return;
    const measure = () =>
      setMore({
        before: nav.scrollLeft > 1,
        after: nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 1,
      });
    measure();
    nav.addEventListener("scroll", measure, { passive: true });
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(measure) : undefined;
    observer?.observe(nav);
    return () => {
      nav.removeEventListener("scroll", measure);
      observer?.disconnect();
    };
  }, []);

  return (
    <div className={cn("relative -mb-px", className)}>
      <nav ref={navRef} aria-label={label} className="flex gap-6 overflow-x-auto [scrollbar-width:none]">
        {tabs.map((tab) => (
          <Link key={String(tab.link.to)} {...tab.link} className={cn(tabClasses, routeTabClasses)}>
            {tab.label}
          </Link>
        ))}
      </nav>
      {more.before ? (
        <span
          aria-hidden="true"
          className="pointer-events-none absolute inset-y-0 left-0 w-10 bg-gradient-to-r from-surface to-transparent"
        />
      ) : null}
      {more.after ? (
        <span
          aria-hidden="true"
          data-testid="tabs-scroll-hint"
          className="pointer-events-none absolute inset-y-0 right-0 flex w-12 items-center justify-end bg-gradient-to-l from-surface via-surface/80 to-transparent text-muted"
        >
          <ChevronRightIcon className="size-4" />
        </span>
      ) : null}
    </div>
  );
}
