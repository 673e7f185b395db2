import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode, useEffect } from "react";
import type { createAppRouter } from "./router";

const nothing = () => {};

/** Runs once the first render (or hydration) is on screen. */
function Rendered({ onRendered }: { onRendered: () => void }) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on the first commit
  useEffect(() => onRendered(), []);
  return null;
}

/**
 * The whole app, the same tree in the browser and on the server: hydration (and `useId`) need both sides to
 * render the same components in the same places.
 */
export function AppRoot({
  queryClient,
  router,
  onRendered = nothing,
}: {
  queryClient: QueryClient;
  router: ReturnType<typeof createAppRouter>;
  onRendered?: () => void;
}) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <Rendered onRendered={onRendered} />
      </QueryClientProvider>
    </StrictMode>
  );
}
