import { Link, type LinkProps } from "@tanstack/react-router";
import { Tabs as TabsPrimitive } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
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
  return (
    <nav aria-label={label} className={cn("-mb-px flex gap-6 overflow-x-auto", className)}>
      {tabs.map((tab) => (
        <Link key={String(tab.link.to)} {...tab.link} className={cn(tabClasses, routeTabClasses)}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
