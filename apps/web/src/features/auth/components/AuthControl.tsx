import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect } from "react";
import { Skeleton } from "#web/components/ui/skeleton";
import { useAuthSession } from "#web/features/auth/session";
import { useAuthState } from "#web/features/auth/use-auth";
import { AuthorizeButton, DisconnectButton } from "./AuthorizeButton";
import { LoginButton } from "./LoginButton";

// Signed-out visitors (most of them) never download the account menu or the profile lookup behind it.
const AccountMenu = lazy(() => import("./AccountMenu"));
const AccountPanel = lazy(() => import("./AccountMenu").then((module) => ({ default: module.AccountPanel })));

/** Once the browser is idle, listen for the connected wallet signing out on its own side. */
function useWalletWatcher() {
  const queryClient = useQueryClient();
  const { wallet } = useAuthSession();
  useEffect(() => {
    if (!wallet) return;
    const start = () =>
      void import("#web/features/auth/flows").then((flows) => flows.watchWallet(wallet, queryClient));
    if (typeof requestIdleCallback === "function") {
      const handle = requestIdleCallback(start);
      return () => cancelIdleCallback(handle);
    }
    const handle = setTimeout(start, 1);
    return () => clearTimeout(handle);
  }, [wallet, queryClient]);
}

/** The header's sign-in, authorize or account control (signed out, signed in but not yet authorized, signed in). */
export function AuthControl() {
  const { status, accountId, user } = useAuthState();
  useWalletWatcher();
  return (
    <div data-auth-control data-auth-status={status} className="flex items-center">
      {status === "signed-out" ? <LoginButton size="sm" /> : null}
      {status === "connected" ? (
        <div className="flex items-center gap-1">
          <AuthorizeButton size="sm" />
          <DisconnectButton size="sm" />
        </div>
      ) : null}
      {status === "authorized" && accountId ? (
        <Suspense fallback={<Skeleton className="h-10 w-36 rounded-full" />}>
          <AccountMenu accountId={accountId} superAdmin={user?.superAdmin ?? false} />
        </Suspense>
      ) : null}
    </div>
  );
}

/** The same control in the mobile menu; `onNavigate` closes the menu before anything else opens. */
export function MobileAuthControl({ onNavigate }: { onNavigate: () => void }) {
  const { status, accountId, user } = useAuthState();
  return (
    <div data-auth-status={status}>
      {status === "signed-out" ? <LoginButton className="w-full" onClick={onNavigate} /> : null}
      {status === "connected" ? (
        <div className="flex flex-col gap-2">
          <AuthorizeButton className="w-full" />
          <DisconnectButton className="w-full" onDone={onNavigate} />
        </div>
      ) : null}
      {status === "authorized" && accountId ? (
        <Suspense fallback={<Skeleton className="h-32 w-full" />}>
          <AccountPanel
            accountId={accountId}
            superAdmin={user?.superAdmin ?? false}
            onNavigate={onNavigate}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
