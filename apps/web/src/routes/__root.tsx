import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import { AppLayout } from "#web/components/layout/AppLayout";
import { NotFoundPage } from "#web/components/layout/NotFoundPage";
import { AuthControl, MobileAuthControl } from "#web/features/auth/components/AuthControl";
import { WalletChooserHost } from "#web/features/auth/components/WalletChooserHost";
import type { RouterContext } from "#web/lib/router-context";

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

function RootLayout() {
  return (
    <AppLayout
      account={<AuthControl />}
      mobileAccount={(close) => <MobileAuthControl onNavigate={close} />}
      dialogs={<WalletChooserHost />}
    >
      <Outlet />
    </AppLayout>
  );
}
