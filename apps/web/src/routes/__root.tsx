import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import { AppLayout } from "../features/layout/components/AppLayout";
import { NotFoundPage } from "../features/layout/components/NotFoundPage";
import type { RouterContext } from "../router";

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

function RootLayout() {
  return (
    <AppLayout>
      <Outlet />
    </AppLayout>
  );
}
