import { lazy, Suspense, useState } from "react";
import { useAuthSession } from "#web/features/auth/session";

const loadChooser = () => import("./WalletChooserDialog");
const WalletChooserDialog = lazy(loadChooser);

export function preloadWalletChooser() {
  void loadChooser();
}

/** Mounts the wallet chooser the first time someone asks for it; its code is not part of the first load. */
export function WalletChooserHost() {
  const { chooserOpen } = useAuthSession();
  const [requested, setRequested] = useState(false);
  if (chooserOpen && !requested) setRequested(true);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <WalletChooserDialog open={chooserOpen} />
    </Suspense>
  );
}
