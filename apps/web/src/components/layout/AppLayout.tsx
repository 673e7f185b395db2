import type { ReactNode } from "react";
import { Toaster } from "#web/components/ui/toast";
import { AppHeader, type AppHeaderSlots } from "./AppHeader";
import { NavigationProgress } from "./NavigationProgress";

export function AppLayout({ children, ...header }: AppHeaderSlots & { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-accent px-4 py-2 text-accent-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <NavigationProgress />
      <AppHeader {...header} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <Toaster />
    </div>
  );
}
