import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import { AppLayout } from "#web/features/layout/components/AppLayout";
import { NotFoundPage } from "#web/features/layout/components/NotFoundPage";
import type { RouterContext } from "#web/router";

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
