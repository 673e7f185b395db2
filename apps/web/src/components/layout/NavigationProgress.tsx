import { useRouterState } from "@tanstack/react-router";

/** A thin bar under the header while the router is moving to another page (code or data still on its way). */
export function NavigationProgress() {
  const loading = useRouterState({ select: (state) => state.isLoading });
  if (!loading) return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading page"
      data-testid="navigation-progress"
      className="fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-accent/20"
    >
      <div className="h-full w-1/3 animate-nav-progress bg-accent" />
    </div>
  );
}
